import { type Issue, issueAt } from "../issues.ts";
import { parsePrincipal } from "./parse-principal.ts";
import type { ConditionClause, Effect, PrincipalSet, Statement } from "./policy-types.ts";

export interface ParsedPolicyDocument {
  statements: Statement[];
  issues: Issue[];
}

/**
 * Parses a policy document as IAM returns it (URL-encoded JSON string), as a JSON
 * string, or already decoded. Problems come back as issues under `path`. A bad statement
 * never widens access: an invalid Allow is dropped, an invalid Deny is kept as a Deny that
 * may apply (see `parseStatement`), and a document that cannot be read stands for one.
 */
export function parsePolicyDocument(raw: unknown, path: string): ParsedPolicyDocument {
  const issues: Issue[] = [];
  const doc = decodeDocument(raw, path, issues);
  // Missing: nothing to read. Present but unreadable: it may hold a Deny of anything.
  if (doc === undefined)
    return {
      statements: raw === undefined || raw === null ? [] : [unknowableDeny(0, "Document", issues)],
      issues,
    };
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    const problem = issueAt(path, "policy document must be a JSON object");
    return { statements: [unknowableDeny(0, "Document", [problem])], issues: [problem] };
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

/** `"Principal": "*"`: what a kept invalid Deny names when its Principal cannot be trusted. */
const ANYONE: PrincipalSet = { any: true, aws: [], service: [], federated: [], canonicalUser: [] };

/**
 * Stands for a statement (or a whole document) that could not be read at all: it may be a
 * Deny of anything, so it is kept as one that may apply to every request.
 */
function unknowableDeny(index: number, element: string, problems: readonly Issue[]): Statement {
  return {
    index,
    effect: "Deny",
    action: ["*"],
    resource: ["*"],
    principal: ANYONE,
    conditions: [],
    invalid: { elements: [element], issues: problems.map(describeIssue) },
  };
}

function describeIssue(issue: Issue): string {
  return `${issue.path}: ${issue.message}`;
}

/**
 * Parses one statement. A statement with an error is reported; an Allow is then dropped
 * (that only narrows access), but a Deny, or a statement whose Effect is invalid, is kept
 * as a Deny that may apply (`Statement.invalid`): the elements at fault match anything
 * (any action, any resource, any principal) and the rest is kept, so that a bad statement
 * never widens what the engine reports as allowed.
 */
function parseStatement(
  raw: unknown,
  index: number,
  path: string,
  issues: Issue[],
): Statement | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const problem = issueAt(path, "statement must be an object");
    issues.push(problem);
    return unknowableDeny(index, "Statement", [problem]);
  }
  const s = raw as Record<string, unknown>;
  const before = issues.length;
  const faults = new Set<string>();
  const check = <T>(element: string, parse: () => T): T => {
    const count = issues.length;
    const value = parse();
    if (issues.length > count) faults.add(element);
    return value;
  };
  const effect = s.Effect;
  check("Effect", () => {
    if (effect !== "Allow" && effect !== "Deny")
      issues.push(issueAt(`${path}.Effect`, 'must be "Allow" or "Deny"'));
  });
  const { action, notAction } = check("Action", () => {
    const action = stringList(s.Action, `${path}.Action`, issues);
    const notAction = stringList(s.NotAction, `${path}.NotAction`, issues);
    if ((action === undefined) === (notAction === undefined))
      issues.push(issueAt(path, "statement needs exactly one of Action or NotAction"));
    return { action, notAction };
  });
  const { resource, notResource } = check("Resource", () => {
    const resource = stringList(s.Resource, `${path}.Resource`, issues);
    const notResource = stringList(s.NotResource, `${path}.NotResource`, issues);
    if (resource !== undefined && notResource !== undefined)
      issues.push(issueAt(path, "statement cannot have both Resource and NotResource"));
    return { resource, notResource };
  });
  const { principal, notPrincipal } = check("Principal", () => ({
    principal:
      s.Principal === undefined
        ? undefined
        : parsePrincipal(s.Principal, `${path}.Principal`, issues),
    notPrincipal:
      s.NotPrincipal === undefined
        ? undefined
        : parsePrincipal(s.NotPrincipal, `${path}.NotPrincipal`, issues),
  }));
  const conditions = check("Condition", () =>
    parseConditions(s.Condition, `${path}.Condition`, issues),
  );
  const sid = typeof s.Sid === "string" && s.Sid !== "" ? s.Sid : undefined;
  // AWS supports NotPrincipal only with Deny: with Allow it would grant everyone but the
  // principals listed, anonymous callers included. Such a statement grants nothing here.
  if (issues.length === before && notPrincipal && effect === "Allow") {
    issues.push(
      issueAt(
        `${path}.NotPrincipal`,
        "NotPrincipal with Allow is not supported by AWS: the statement is ignored and grants nothing",
        "warning",
      ),
    );
    return undefined;
  }
  if (issues.length === before) {
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
  if (effect === "Allow") return undefined;
  const trusted = (element: string) => !faults.has(element);
  return {
    index,
    ...(sid !== undefined && { sid }),
    effect: "Deny",
    ...(trusted("Action")
      ? { ...(action && { action }), ...(notAction && { notAction }) }
      : { action: ["*"] }),
    ...(trusted("Resource")
      ? { ...(resource && { resource }), ...(notResource && { notResource }) }
      : { resource: ["*"] }),
    ...(trusted("Principal")
      ? { ...(principal && { principal }), ...(notPrincipal && { notPrincipal }) }
      : { principal: ANYONE }),
    // Valid clauses still count: the Deny applies only if they hold, whatever the rest says.
    conditions,
    invalid: { elements: [...faults], issues: issues.slice(before).map(describeIssue) },
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
