import { GetPolicyCommand, GetPolicyVersionCommand } from "@aws-sdk/client-iam";
import { mapConcurrent } from "@sightline/domain";
import { type CollectContext, readOrWarn } from "./collect-context.ts";
import { toPlainJson } from "./plain-json.ts";
import type { AuthorizationDetailsJson } from "./read-authorization-details.ts";

/**
 * Adds to `Policies` every managed policy that a principal uses (attached or as permissions
 * boundary) but GAAD left out, with its default version: the engine grants nothing for a
 * policy it cannot see. One that cannot be read is a warning.
 */
export async function completeManagedPolicies(
  ctx: CollectContext,
  details: AuthorizationDetailsJson,
): Promise<void> {
  const known = new Set(details.Policies.map((policy) => policy.Arn));
  const missing = [...usedPolicyArns(details)].filter((arn) => !known.has(arn));
  const found = await mapConcurrent(missing, ctx.concurrency, (arn) => readPolicy(ctx, arn));
  for (const policy of found) if (policy) details.Policies.push(policy);
}

function usedPolicyArns(details: AuthorizationDetailsJson): Set<string> {
  const arns = new Set<string>();
  const principals = [
    ...details.UserDetailList,
    ...details.GroupDetailList,
    ...details.RoleDetailList,
  ];
  for (const principal of principals) {
    const attached = principal.AttachedManagedPolicies;
    if (Array.isArray(attached)) {
      for (const policy of attached as { PolicyArn?: unknown }[]) {
        if (typeof policy.PolicyArn === "string") arns.add(policy.PolicyArn);
      }
    }
    const boundary = principal.PermissionsBoundary as
      | { PermissionsBoundaryArn?: unknown }
      | undefined;
    if (typeof boundary?.PermissionsBoundaryArn === "string")
      arns.add(boundary.PermissionsBoundaryArn);
  }
  return arns;
}

async function readPolicy(
  ctx: CollectContext,
  arn: string,
): Promise<Record<string, unknown> | undefined> {
  const attempt = {
    target: arn,
    kind: "managed-policy-unreadable" as const,
    consequence: "The managed policy grants nothing in this analysis",
  };
  const policy = await readOrWarn(ctx, { ...attempt, action: "iam:GetPolicy" }, async () => {
    const answer = await ctx.clients.iam.send(new GetPolicyCommand({ PolicyArn: arn }));
    return answer.Policy;
  });
  if (!policy?.DefaultVersionId) return undefined;
  const versionId = policy.DefaultVersionId;
  const version = await readOrWarn(
    ctx,
    { ...attempt, action: "iam:GetPolicyVersion" },
    async () => {
      const answer = await ctx.clients.iam.send(
        new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: versionId }),
      );
      return answer.PolicyVersion;
    },
  );
  if (!version) return undefined;
  return toPlainJson({ ...policy, PolicyVersionList: [version] }) as Record<string, unknown>;
}
