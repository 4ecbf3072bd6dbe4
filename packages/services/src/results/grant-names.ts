import { formatGrantSource, type GrantSource } from "@sightline/engine";

/** The policies that grant a stored entry, as people name them, each list named once. */

const NO_NAMES: readonly string[] = Object.freeze([]);
// The engine shares its source objects (and often their lists) among the rows it grants alike:
// each is named once.
const nameOfSource = new WeakMap<GrantSource, string>();
const namesOfList = new WeakMap<readonly GrantSource[], readonly string[]>();
/** A policy that grants an entry, as people name it. */
export const grantName = (source: GrantSource): string => {
  let name = nameOfSource.get(source);
  if (name === undefined) {
    name = formatGrantSource(source);
    nameOfSource.set(source, name);
  }
  return name;
};

/** The policies that grant a row, as people name them (`formatGrantSource`). */
export function grantNames(sources: readonly GrantSource[] | undefined): readonly string[] {
  if (!sources || sources.length === 0) return NO_NAMES;
  let names = namesOfList.get(sources);
  if (!names) {
    names = sources.map(grantName);
    namesOfList.set(sources, names);
  }
  return names;
}

// A list of sources as JSON text, one string per distinct content: lists that the engine builds
// apart but that name the same policies are one entry of a record's `grants`.
const textOfList = new WeakMap<readonly GrantSource[], string>();
const canonicalText = new Map<string, string>();
const EMPTY_LIST: readonly GrantSource[] = Object.freeze([]);
export function grantText(sources: readonly GrantSource[] | undefined): string {
  const list = sources ?? EMPTY_LIST;
  let text = textOfList.get(list);
  if (text === undefined) {
    const json = JSON.stringify(grantNames(list));
    text = canonicalText.get(json);
    if (text === undefined) {
      if (canonicalText.size >= 100_000) canonicalText.clear();
      canonicalText.set(json, json);
      text = json;
    }
    textOfList.set(list, text);
  }
  return text;
}
