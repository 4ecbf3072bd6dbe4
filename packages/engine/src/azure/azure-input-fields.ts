import type { z } from "zod";
import { type Issue, issueAt } from "../issues.ts";
import { AzureSnapshotError, type PermissionBlock } from "./azure-model.ts";
import type { AzurePermissionInput } from "./azure-snapshot.ts";

/**
 * How `readAzureSnapshot` turns the schemas' verdicts (azure-snapshot.ts) into the engine's:
 * a field path as the issues write it (`roleAssignments[3].scope`), a malformed entry ignored
 * with an issue per fault, a malformed frame thrown as `AzureSnapshotError`.
 */

/** `roleAssignments[3].scope` from `roleAssignments` and zod's `[3, "scope"]`. */
export function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path)
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  return out;
}

/** The snapshot's frame, or `AzureSnapshotError` naming its first fault. */
export function readFrame<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AzureSnapshotError(
    fieldPath("", issue?.path ?? []) || "snapshot",
    issue?.message ?? "is malformed",
  );
}

/**
 * The entries of a list that `schema` accepts, each with its position; one that it refuses is
 * ignored, with an issue per fault naming its path (`roleAssignments[3].scope`).
 */
export function readEntries<T extends z.ZodType>(
  entries: readonly unknown[] | null | undefined,
  schema: T,
  field: string,
  what: string,
  issues: Issue[],
): { entry: z.infer<T>; index: number; path: string }[] {
  const out: { entry: z.infer<T>; index: number; path: string }[] = [];
  (entries ?? []).forEach((raw, index) => {
    const path = `${field}[${index}]`;
    const parsed = schema.safeParse(raw);
    if (parsed.success) out.push({ entry: parsed.data, index, path });
    else
      for (const issue of parsed.error.issues)
        issues.push(
          issueAt(fieldPath(path, issue.path), `${issue.message}; the ${what} is ignored`),
        );
  });
  return out;
}

/** An optional text as the analysis reads it: `""` and `null` are absent. */
export const present = (value: string | null | undefined): string | undefined =>
  value === null || value === "" ? undefined : value;

/** The permission blocks of a role definition or deny assignment (already read by the schema). */
export function readBlocks(
  blocks: readonly AzurePermissionInput[],
  field: string,
): PermissionBlock[] {
  return blocks.map((p, j) => {
    const condition = present(p.condition);
    return {
      actions: p.actions ?? [],
      notActions: p.notActions ?? [],
      dataActions: p.dataActions ?? [],
      notDataActions: p.notDataActions ?? [],
      ...(condition ? { condition } : {}),
      path: `${field}[${j}]`,
    };
  });
}

/** The last segment of an ID (`…/roleDefinitions/<guid>` -> guid), lower-cased. */
export const lastSegment = (id: string) => id.slice(id.lastIndexOf("/") + 1).toLowerCase();
