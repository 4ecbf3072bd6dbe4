import { z } from "zod";

export const ValidationIssue = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** Every error body keeps the contract's `message` at the top level (section 7). */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  requestId: z.string().optional(),
  issues: z.array(ValidationIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

interface IssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/**
 * Flattens zod issues into `{ path, message }` pairs under an optional prefix ("body", "path").
 * An unknown key becomes one issue at that key's own path, so the client sees which field.
 */
export function toValidationIssues(
  issues: readonly IssueLike[],
  prefix?: string,
): ValidationIssue[] {
  const join = (path: readonly PropertyKey[]) =>
    [...(prefix ? [prefix] : []), ...path.map(String)].join(".") || "(root)";
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({
          path: join([...issue.path, key]),
          message: "is not a recognised field",
        }))
      : [{ path: join(issue.path), message: issue.message }],
  );
}
