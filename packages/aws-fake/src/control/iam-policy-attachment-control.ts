import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import { emitIam as iam, documentText as json, nameParam } from "./iam-events.ts";
import {
  type ControlContext,
  countUse,
  findEntry,
  PRINCIPALS,
  type PrincipalKind,
  titleOf,
  updatePrincipal,
  usesOf,
} from "./model-edits.ts";

export function attachPolicy(ctx: ControlContext, kind: PrincipalKind, name: string, arn: string) {
  const attachedAlready = usesOf(findEntry(ctx.state, kind, name)).attached.includes(arn);
  if (!attachedAlready) {
    countUse(ctx.state, arn, "AttachmentCount", 1);
    const policyName = arn.split("/").pop() ?? arn;
    updatePrincipal(ctx.state, kind, name, (entry) => ({
      ...entry,
      AttachedManagedPolicies: [
        ...((entry.AttachedManagedPolicies ?? []) as object[]),
        { PolicyName: policyName, PolicyArn: arn },
      ],
    }));
  }
  iam(ctx, `Attach${titleOf(kind)}Policy`, { ...nameParam(kind, name), policyArn: arn });
}

export function detachPolicy(ctx: ControlContext, kind: PrincipalKind, name: string, arn: string) {
  if (!usesOf(findEntry(ctx.state, kind, name)).attached.includes(arn)) {
    throw new FakeAwsError("NoSuchEntity", `Policy ${arn} was not found.`, 404);
  }
  countUse(ctx.state, arn, "AttachmentCount", -1);
  updatePrincipal(ctx.state, kind, name, (entry) => ({
    ...entry,
    AttachedManagedPolicies: ((entry.AttachedManagedPolicies ?? []) as GaadEntry[]).filter(
      (policy) => policy.PolicyArn !== arn,
    ),
  }));
  iam(ctx, `Detach${titleOf(kind)}Policy`, { ...nameParam(kind, name), policyArn: arn });
}

export function putInlinePolicy(
  ctx: ControlContext,
  kind: PrincipalKind,
  name: string,
  policyName: string,
  document: unknown,
) {
  const inline = PRINCIPALS[kind].inline;
  updatePrincipal(ctx.state, kind, name, (entry) => {
    const others = ((entry[inline] ?? []) as GaadEntry[]).filter(
      (p) => p.PolicyName !== policyName,
    );
    return {
      ...entry,
      [inline]: [...others, { PolicyName: policyName, PolicyDocument: document }],
    };
  });
  const params = { ...nameParam(kind, name), policyName, policyDocument: json(document) };
  iam(ctx, `Put${titleOf(kind)}Policy`, params);
}

export function deleteInlinePolicy(
  ctx: ControlContext,
  kind: PrincipalKind,
  name: string,
  policyName: string,
) {
  const inline = PRINCIPALS[kind].inline;
  const policies = (findEntry(ctx.state, kind, name)[inline] ?? []) as GaadEntry[];
  if (!policies.some((policy) => policy.PolicyName === policyName)) {
    throw new FakeAwsError(
      "NoSuchEntity",
      `The ${kind} policy with name ${policyName} cannot be found.`,
      404,
    );
  }
  updatePrincipal(ctx.state, kind, name, (entry) => ({
    ...entry,
    [inline]: policies.filter((policy) => policy.PolicyName !== policyName),
  }));
  iam(ctx, `Delete${titleOf(kind)}Policy`, { ...nameParam(kind, name), policyName });
}

/** Sets (with an ARN) or removes (undefined) the permissions boundary of a user or role. */
export function setPermissionsBoundary(
  ctx: ControlContext,
  kind: "user" | "role",
  name: string,
  arn: string | undefined,
) {
  const previous = usesOf(findEntry(ctx.state, kind, name)).boundary;
  if (arn) countUse(ctx.state, arn, "PermissionsBoundaryUsageCount", 1);
  if (previous) countUse(ctx.state, previous, "PermissionsBoundaryUsageCount", -1);
  updatePrincipal(ctx.state, kind, name, ({ PermissionsBoundary: _, ...entry }) =>
    arn
      ? {
          ...entry,
          PermissionsBoundary: { PermissionsBoundaryType: "Policy", PermissionsBoundaryArn: arn },
        }
      : entry,
  );
  const verb = arn ? "Put" : "Delete";
  const params = { ...nameParam(kind, name), ...(arn ? { permissionsBoundary: arn } : {}) };
  iam(ctx, `${verb}${titleOf(kind)}PermissionsBoundary`, params);
}
