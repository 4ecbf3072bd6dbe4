import { type Issue, issueAt } from "../issues.ts";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A required string field; reports an issue and returns undefined when missing or mistyped. */
export function requireString(
  obj: Json,
  field: string,
  path: string,
  issues: Issue[],
): string | undefined {
  const value = obj[field];
  if (typeof value === "string" && value !== "") return value;
  issues.push(
    issueAt(`${path}.${field}`, value === undefined ? "is required" : "must be a non-empty string"),
  );
  return undefined;
}

export function optionalString(obj: Json, field: string): string | undefined {
  const value = obj[field];
  return typeof value === "string" ? value : undefined;
}

/** An optional array field: missing gives [], a non-array gives [] and an issue. */
export function arrayField(obj: Json, field: string, path: string, issues: Issue[]): unknown[] {
  const value = obj[field];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  issues.push(issueAt(`${path}.${field}`, "must be an array"));
  return [];
}

/** IAM tags arrive as `[{ Key, Value }]`. */
export function readTags(obj: Json, path: string, issues: Issue[]): Record<string, string> {
  const tags: Record<string, string> = {};
  arrayField(obj, "Tags", path, issues).forEach((tag, i) => {
    if (isObject(tag) && typeof tag.Key === "string")
      tags[tag.Key] = typeof tag.Value === "string" ? tag.Value : "";
    else issues.push(issueAt(`${path}.Tags[${i}]`, "must be { Key, Value }"));
  });
  return tags;
}
