/*
 * PLACEHOLDER — replaced at merge time by the real Azure analysis (issue 13, "Analysis").
 *
 * It exists only so that the collector and the pipeline can be wired and tested end to end
 * before the real analysis is merged: it lists each principal named by a role assignment (with
 * its type and name from the directory objects) and nothing else — no resources, no access
 * summaries, no IAM-admin verdict. Keep the file name and the signature when replacing it.
 */
import type { AccountAnalysis, PrincipalRow, PrincipalType } from "../analyze/analysis-types.ts";
import type { AzureDirectoryObjectInput, AzureSnapshot } from "./azure-snapshot.ts";

function typeOf(
  assigned: string | null | undefined,
  object: AzureDirectoryObjectInput | undefined,
): PrincipalType {
  const type = (assigned ?? object?.["@odata.type"] ?? "").toLowerCase();
  if (type.includes("group")) return "AzureGroup";
  if (type.includes("serviceprincipal"))
    return object?.servicePrincipalType === "ManagedIdentity"
      ? "AzureManagedIdentity"
      : "AzureServicePrincipal";
  return "AzureUser";
}

/** PLACEHOLDER: principal rows only (see the comment at the top of this file). */
export function analyzeAzureSubscription(
  snapshot: AzureSnapshot,
  _options?: Record<string, unknown>,
): AccountAnalysis {
  const objects = new Map<string, AzureDirectoryObjectInput>();
  for (const object of [...(snapshot.principals ?? []), ...(snapshot.groups ?? [])])
    objects.set(object.id, object);
  const principals = new Map<string, PrincipalRow>();
  for (const assignment of snapshot.roleAssignments) {
    if (principals.has(assignment.principalId)) continue;
    const object = objects.get(assignment.principalId);
    principals.set(assignment.principalId, {
      principalArn: assignment.principalId,
      principalName:
        object?.userPrincipalName ??
        object?.displayName ??
        assignment.principalName ??
        assignment.principalId,
      principalType: typeOf(assignment.principalType, object),
      accountId: snapshot.subscriptionId,
      iamAdmin: "no",
      groupArns: [],
      tags: {},
    });
  }
  const rows = [...principals.values()];
  return {
    principals: rows,
    resources: [],
    *principalAccessSummaries() {},
    *resourceAccessSummaries() {},
    accessOf: () => undefined,
    issues: [],
    stats: {
      principals: rows.length,
      policySets: 0,
      resources: 0,
      actionPatternsExpanded: 0,
      policyLayersComputed: 0,
    },
  };
}
