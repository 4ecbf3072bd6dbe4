import { type Issue, issueAt } from "../issues.ts";
import type { PrincipalSet } from "./policy-types.ts";

const KINDS = {
  AWS: "aws",
  Service: "service",
  Federated: "federated",
  CanonicalUser: "canonicalUser",
} as const;

/** Parses a Principal/NotPrincipal element: `"*"` or `{ AWS | Service | Federated | CanonicalUser: string | string[] }`. */
export function parsePrincipal(
  raw: unknown,
  path: string,
  issues: Issue[],
): PrincipalSet | undefined {
  const set = {
    any: false,
    aws: [] as string[],
    service: [] as string[],
    federated: [] as string[],
    canonicalUser: [] as string[],
  };
  if (raw === "*") return { ...set, any: true };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    issues.push(
      issueAt(path, 'must be "*" or an object with AWS, Service, Federated or CanonicalUser'),
    );
    return undefined;
  }
  for (const [kind, value] of Object.entries(raw)) {
    const field = KINDS[kind as keyof typeof KINDS];
    if (!field) {
      issues.push(issueAt(`${path}.${kind}`, "unknown principal kind"));
      continue;
    }
    const values = typeof value === "string" ? [value] : value;
    if (!Array.isArray(values) || values.some((v) => typeof v !== "string")) {
      issues.push(issueAt(`${path}.${kind}`, "must be a string or an array of strings"));
      continue;
    }
    for (const v of values as string[]) {
      if (field === "aws" && v === "*") set.any = true;
      else set[field].push(v);
    }
  }
  return set;
}
