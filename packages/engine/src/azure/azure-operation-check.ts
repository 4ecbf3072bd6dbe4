import { type Issue, issueAt } from "../issues.ts";
import type { AzureModel, AzureRole, PermissionBlock } from "./azure-model.ts";
import type { AzureOperationIndex } from "./azure-operations.ts";

/**
 * Operation names the catalogue does not know, and operations named in the wrong plane, in the
 * roles assigned (once per role) and in the deny assignments: as warnings, in that order.
 */
export function operationIssues(model: AzureModel, index: AzureOperationIndex): Issue[] {
  const issues: Issue[] = [];
  const checked = new Set<AzureRole>();
  for (const a of model.assignments) {
    if (checked.has(a.role)) continue;
    checked.add(a.role);
    checkBlocks(a.role.blocks, index, issues);
  }
  for (const d of model.denies) checkBlocks(d.blocks, index, issues);
  return issues;
}

function checkBlocks(
  blocks: readonly PermissionBlock[],
  index: AzureOperationIndex,
  issues: Issue[],
): void {
  for (const b of blocks) {
    const check = (patterns: readonly string[], field: string, data: boolean) =>
      patterns.forEach((pattern, k) => {
        if (pattern.includes("*")) return;
        const i = index.indexOf(pattern);
        const op = i === undefined ? undefined : index.operations[i];
        if (!op)
          issues.push(
            issueAt(
              `${b.path}.${field}[${k}]`,
              `'${pattern}' is not in the Azure operation catalogue: it appears in no summary row`,
              "warning",
            ),
          );
        else if (op.isDataAction !== data)
          issues.push(
            issueAt(
              `${b.path}.${field}[${k}]`,
              data
                ? `'${pattern}' is a control-plane action: dataActions do not grant it`
                : `'${pattern}' is a data action: actions do not grant it (only dataActions do)`,
              "warning",
            ),
          );
      });
    check(b.actions, "actions", false);
    check(b.dataActions, "dataActions", true);
  }
}
