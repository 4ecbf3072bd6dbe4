/** An IAM action name split into its verb and the words of its noun. */
export interface ActionWords {
  /** Capitalised verb, e.g. `Get` for `BatchGetItem`, `Connect` for `rds-db:connect`. */
  verb: string;
  /** Words after the verb, e.g. `["Item"]`. */
  noun: readonly string[];
  /**
   * Words that qualify how the action is called rather than what it acts on: those before the verb
   * (`Batch`, `Admin`, `PartiQL`) and the suffixes `WithIAM` and `Async`
   * (`GetClusterCredentialsWithIAM` acts on cluster credentials, `InvokeAsync` invokes).
   */
  modifiers: readonly string[];
}

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;
/** Leading words that qualify the verb rather than being it. */
const VERB_MODIFIERS = new Set(["Batch", "Admin", "PartiQL", "Bulk", "Re"]);

/** Trailing words that qualify the call, not its object (`…WithIAM`, `…Async`). */
const SUFFIX_MODIFIERS: readonly (readonly string[])[] = [["With", "IAM"], ["Async"]];

/** Splits `DescribeDBInstances` into `Describe` + `DB Instances`; acronyms stay whole. */
export function splitActionName(name: string): ActionWords {
  const raw = (name.match(WORD) ?? [name]).map(capitalise);
  const words = mergePartiQL(raw);
  const modifiers: string[] = [];
  while (words.length > 1 && VERB_MODIFIERS.has(words[0] ?? ""))
    modifiers.push(words.shift() ?? "");
  const [verb = name, ...noun] = words;
  for (const suffix of SUFFIX_MODIFIERS) {
    const at = noun.length - suffix.length;
    if (at >= 0 && suffix.every((w, i) => noun[at + i] === w)) {
      modifiers.push(suffix.join(""));
      noun.splice(at);
    }
  }
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
