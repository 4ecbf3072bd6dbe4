/** An IAM action name split into its verb and the words of its noun. */
export interface ActionWords {
  /** Capitalised verb, e.g. `Get` for `BatchGetItem`, `Connect` for `rds-db:connect`. */
  verb: string;
  /** Words after the verb, e.g. `["Item"]`. */
  noun: readonly string[];
  /** Words that came before the verb (`Batch`, `Admin`, `PartiQL`). */
  modifiers: readonly string[];
}

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;
/** Leading words that qualify the verb rather than being it. */
const VERB_MODIFIERS = new Set(["Batch", "Admin", "PartiQL", "Bulk", "Re"]);

/** Splits `DescribeDBInstances` into `Describe` + `DB Instances`; acronyms stay whole. */
export function splitActionName(name: string): ActionWords {
  const raw = (name.match(WORD) ?? [name]).map(capitalise);
  const words = mergePartiQL(raw);
  const modifiers: string[] = [];
  while (words.length > 1 && VERB_MODIFIERS.has(words[0] ?? ""))
    modifiers.push(words.shift() ?? "");
  const [verb = name, ...noun] = words;
  return { verb, noun, modifiers };
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `PartiQLSelect` tokenises as `Parti QL Select`. */
function mergePartiQL(words: string[]): string[] {
  if (words[0] === "Parti" && words[1] === "QL") return ["PartiQL", ...words.slice(2)];
  return words;
}
