import { invalidInput, toValidationIssues, type ValidationIssue } from "@sightline/domain";
import type { Context } from "hono";

interface HookResult {
  target: string;
  success: boolean;
  data?: unknown;
  error?: { issues: readonly { path: PropertyKey[]; message: string; code?: string }[] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Identifiers in a body must equal the path's: `accountId` in the body is the path's. */
function pathMismatches(body: unknown, params: Record<string, string>): ValidationIssue[] {
  if (!isRecord(body)) return [];
  return Object.entries(params)
    .filter(([name, value]) => body[name] !== undefined && body[name] !== value)
    .map(([name, value]) => ({ path: name, message: `must equal the path parameter '${value}'` }));
}

/**
 * The one validation hook of every route: a 400 whose `issues` name each field and rule. A body
 * member that contradicts the path is reported as such, instead of the schema's own complaint.
 */
export function validationHook(result: HookResult, c: Context): void {
  const issues = result.success ? [] : toValidationIssues(result.error?.issues ?? []);
  if (result.target !== "json") {
    const where = result.target === "query" ? "query parameter" : "path parameter";
    if (issues.length > 0) throw invalidInput(where, issues);
    return;
  }
  const mismatches = pathMismatches(result.data, c.req.param() as Record<string, string>);
  const all = [...mismatches, ...issues.filter((i) => !mismatches.some((m) => m.path === i.path))];
  if (all.length > 0) throw invalidInput("request body", all);
}
