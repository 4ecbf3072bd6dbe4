/** Tags with a column of their own (`principal_tag_<name>`, `resource_tag_<name>`). */
export type WellKnownTag =
  | "business_unit"
  | "environment"
  | "used_by"
  | "owner"
  | "confidentiality"
  | "integrity"
  | "availability";

/** `BusinessUnit`, `business_unit`, `business-unit` and `Business Unit` all name one tag. */
const normalize = (key: string) => key.toLowerCase().replace(/[\s_-]/g, "");

const BY_NORMALIZED_KEY: ReadonlyMap<string, WellKnownTag> = new Map([
  ["businessunit", "business_unit"],
  ["environment", "environment"],
  ["usedby", "used_by"],
  ["owner", "owner"],
  ["confidentiality", "confidentiality"],
  ["integrity", "integrity"],
  ["availability", "availability"],
]);

/**
 * The values of the well-known tags among `tags`, matched case-insensitively, ignoring spaces,
 * `_` and `-`. S3 tag keys are case-sensitive, so two keys may match one tag: the first in
 * code-point order wins, so that the choice never depends on the order of collection.
 */
export function findWellKnownTags(
  tags: Readonly<Record<string, string>>,
): Readonly<Partial<Record<WellKnownTag, string>>> {
  const found: Partial<Record<WellKnownTag, string>> = {};
  for (const key of Object.keys(tags).sort()) {
    const tag = BY_NORMALIZED_KEY.get(normalize(key));
    if (tag !== undefined && found[tag] === undefined) found[tag] = tags[key];
  }
  return found;
}
