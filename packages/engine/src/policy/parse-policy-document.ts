import { type Issue, issueAt } from "../issues.ts";
import { parsePrincipal } from "./parse-principal.ts";
import type { ConditionClause, Effect, Statement } from "./policy-types.ts";

export interface ParsedPolicyDocument {
  statements: Statement[];
  issues: Issue[];
}

/**
 * Parses a policy document as IAM returns it (URL-encoded JSON string), as a JSON
 * string, or already decoded. Problems come back as issues under `path`; statements
 * with a problem are dropped so that a bad statement never grants anything.
 */
export function parsePolicyDocument(raw: unknown, path: string): ParsedPolicyDocument {
  const issues: Issue[] = [];
  const doc = decodeDocument(raw, path, issues);
  if (doc === undefined) return { statements: [], issues };
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { statements: [], issues: [issueAt(path, "policy document must be a JSON object")] };
  }
  const rawStatements = (doc as Record<string, unknown>).Statement;
  const list = Array.isArray(rawStatements)
    ? rawStatements
    : rawStatements === undefined
      ? []
      : [rawStatements];
  if (rawStatements === undefined)
    issues.push(issueAt(path, "policy document has no Statement", "warning"));
  const version = (doc as Record<string, unknown>).Version;
  const statements: Statement[] = [];
  list.forEach((entry, index) => {
    const statement = parseStatement(entry, index, `${path}.Statement[${index}]`, issues);
    if (statement)
      statements.push(version === "2012-10-17" ? statement : withLiteralVariables(statement));
  });
  return { statements, issues };
}

/**
 * Policy variables exist only in Version 2012-10-17; elsewhere `${...}` is literal text.
 * Rewriting `${` as `${$}{` (the documented `$` escape) keeps one matching code path.
 */
const VARIABLE_START = "$" + "{";
const ESCAPED_START = `${VARIABLE_START}$}{`;

function withLiteralVariables(statement: Statement): Statement {
  const literal = (text: string) => text.replaceAll(VARIABLE_START, ESCAPED_START);
  if (!JSON.stringify(statement).includes(VARIABLE_START)) return statement;
  return {
    ...statement,
    ...(statement.resource && { resource: statement.resource.map(literal) }),
    ...(statement.notResource && { notResource: statement.notResource.map(literal) }),
    conditions: statement.conditions.map((c) => ({ ...c, values: c.values.map(literal) })),
  };
}

function decodeDocument(raw: unknown, path: string, issues: Issue[]): unknown {
  if (typeof raw !== "string") {
    if (raw === undefined || raw === null) issues.push(issueAt(path, "policy document is missing"));
    return raw ?? undefined;
  }
  let text = raw.trim();
  if (!text.startsWith("{")) {
    try {
      text = decodeURIComponent(text.replace(/\+/g, "%20"));
    } catch {
      issues.push(issueAt(path, "policy document is neither JSON nor valid URL-encoded JSON"));
      return undefined;
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    issues.push(issueAt(path, `policy document is not valid JSON: ${(error as Error).message}`));
    return undefined;
  }
}

function parseStatement(
  raw: unknown,
  index: number,
  path: string,
  issues: Issue[],
): Statement | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    issues.push(issueAt(path, "statement must be an object"));
    return undefined;
  }
  const s = raw as Record<string, unknown>;
  const before = issues.length;
  const effect = s.Effect;
  if (effect !== "Allow" && effect !== "Deny")
    issues.push(issueAt(`${path}.Effect`, 'must be "Allow" or "Deny"'));
  const action = stringList(s.Action, `${path}.Action`, issues);
  const notAction = stringList(s.NotAction, `${path}.NotAction`, issues);
  if ((action === undefined) === (notAction === undefined)) {
    issues.push(issueAt(path, "statement needs exactly one of Action or NotAction"));
  }
  const resource = stringList(s.Resource, `${path}.Resource`, issues);
  const notResource = stringList(s.NotResource, `${path}.NotResource`, issues);
  if (resource !== undefined && notResource !== undefined) {
    issues.push(issueAt(path, "statement cannot have both Resource and NotResource"));
  }
  const principal =
    s.Principal === undefined
      ? undefined
      : parsePrincipal(s.Principal, `${path}.Principal`, issues);
  const notPrincipal =
    s.NotPrincipal === undefined
      ? undefined
      : parsePrincipal(s.NotPrincipal, `${path}.NotPrincipal`, issues);
  const conditions = parseConditions(s.Condition, `${path}.Condition`, issues);
  if (issues.length > before) return undefined;
  // AWS supports NotPrincipal only with Deny: with Allow it would grant everyone but the
  // principals listed, anonymous callers included. Such a statement grants nothing here.
  if (notPrincipal && effect === "Allow") {
    issues.push(
      issueAt(
        `${path}.NotPrincipal`,
        "NotPrincipal with Allow is not supported by AWS: the statement is ignored and grants nothing",
        "warning",
      ),
    );
    return undefined;
  }
  const sid = typeof s.Sid === "string" && s.Sid !== "" ? s.Sid : undefined;
  return {
    index,
    ...(sid !== undefined && { sid }),
    effect: effect as Effect,
    ...(action && { action }),
    ...(notAction && { notAction }),
    ...(resource && { resource }),
    ...(notResource && { notResource }),
    ...(principal && { principal }),
    ...(notPrincipal && { notPrincipal }),
    conditions,
  };
}

function stringList(raw: unknown, path: string, issues: Issue[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
    issues.push(issueAt(path, "must be a string or an array of strings"));
    return undefined;
  }
  return list as string[];
}

function parseConditions(raw: unknown, path: string, issues: Issue[]): ConditionClause[] {
  if (raw === undefined) return [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    issues.push(issueAt(path, "must be an object of operator → { key: values }"));
    return [];
  }
  const clauses: ConditionClause[] = [];
  for (const [operator, block] of Object.entries(raw)) {
    if (typeof block !== "object" || block === null || Array.isArray(block)) {
      issues.push(issueAt(`${path}.${operator}`, "must be an object of key → values"));
      continue;
    }
    for (const [key, value] of Object.entries(block)) {
      const list = Array.isArray(value) ? value : [value];
      if (
        list.some((v) => typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
      ) {
        issues.push(
          issueAt(`${path}.${operator}.${key}`, "values must be strings, numbers or booleans"),
        );
        continue;
      }
      clauses.push({ operator, key, values: list.map(String) });
    }
  }
  return clauses;
}
