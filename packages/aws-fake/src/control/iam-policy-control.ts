import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import { partitionOf, randomId } from "../fake-state.ts";
import { findManagedPolicy } from "../services/iam.ts";
import { type ControlContext, details, iamDate, replaceDetails } from "./model-edits.ts";

const json = (document: unknown) =>
  typeof document === "string" ? document : JSON.stringify(document);

function emit(ctx: ControlContext, eventName: string, params: object, response?: object) {
  ctx.emit({
    service: "iam",
    eventName,
    region: "us-east-1",
    requestParameters: params as Record<string, unknown>,
    ...(response ? { responseElements: response as Record<string, unknown> } : {}),
  });
}

/** Replaces a customer managed policy's GAAD entry (AWS's own cannot be changed). */
function updatePolicy(ctx: ControlContext, arn: string, change: (policy: GaadEntry) => GaadEntry) {
  const policy = findManagedPolicy(ctx.state, arn);
  if (arn.includes(":iam::aws:policy/")) {
    throw new FakeAwsError("AccessDenied", `AWS managed policy ${arn} cannot be changed.`, 403);
  }
  const changed = change(policy);
  replaceDetails(ctx.state, {
    Policies: details(ctx.state).Policies.map((entry) => (entry.Arn === arn ? changed : entry)),
  });
}

const versionsOf = (policy: GaadEntry) => (policy.PolicyVersionList ?? []) as GaadEntry[];

/** A customer managed policy with its first version; its ARN. */
export function createPolicy(ctx: ControlContext, name: string, document: unknown): string {
  const arn = `arn:${partitionOf(ctx.state)}:iam::${ctx.state.model.accountId}:policy/${name}`;
  if (details(ctx.state).Policies.some((policy) => policy.Arn === arn)) {
    throw new FakeAwsError("EntityAlreadyExists", `A policy called ${name} already exists.`, 409);
  }
  const date = iamDate(ctx.now());
  const summary = {
    PolicyName: name,
    PolicyId: randomId("ANPA", 17),
    Arn: arn,
    Path: "/",
    DefaultVersionId: "v1",
    AttachmentCount: 0,
    PermissionsBoundaryUsageCount: 0,
    IsAttachable: true,
    CreateDate: date,
    UpdateDate: date,
  };
  const version = { Document: document, VersionId: "v1", IsDefaultVersion: true, CreateDate: date };
  replaceDetails(ctx.state, {
    Policies: [...details(ctx.state).Policies, { ...summary, PolicyVersionList: [version] }],
  });
  const response = { policy: { ...summary, createDate: date } };
  emit(ctx, "CreatePolicy", { policyName: name, policyDocument: json(document) }, response);
  return arn;
}

/** A new version (IAM keeps five at most), the default one when `setAsDefault`; its ID. */
export function createPolicyVersion(
  ctx: ControlContext,
  arn: string,
  document: unknown,
  setAsDefault: boolean,
): string {
  let versionId = "";
  const date = iamDate(ctx.now());
  updatePolicy(ctx, arn, (policy) => {
    const versions = versionsOf(policy);
    if (versions.length >= 5) {
      throw new FakeAwsError("LimitExceeded", "A managed policy can have up to 5 versions.", 409);
    }
    const highest = Math.max(0, ...versions.map((v) => Number(String(v.VersionId).slice(1))));
    versionId = `v${highest + 1}`;
    const version = {
      Document: document,
      VersionId: versionId,
      IsDefaultVersion: setAsDefault,
      CreateDate: date,
    };
    const kept = versions.map((v) => (setAsDefault ? { ...v, IsDefaultVersion: false } : v));
    return {
      ...policy,
      ...(setAsDefault ? { DefaultVersionId: versionId } : {}),
      UpdateDate: date,
      PolicyVersionList: [...kept, version],
    };
  });
  const response = {
    policyVersion: { versionId, isDefaultVersion: setAsDefault, createDate: date },
  };
  emit(
    ctx,
    "CreatePolicyVersion",
    { policyArn: arn, policyDocument: json(document), setAsDefault },
    response,
  );
  return versionId;
}

export function setDefaultPolicyVersion(ctx: ControlContext, arn: string, versionId: string) {
  updatePolicy(ctx, arn, (policy) => {
    if (!versionsOf(policy).some((v) => v.VersionId === versionId)) {
      throw new FakeAwsError(
        "NoSuchEntity",
        `Policy ${arn} version ${versionId} does not exist.`,
        404,
      );
    }
    return {
      ...policy,
      DefaultVersionId: versionId,
      UpdateDate: iamDate(ctx.now()),
      PolicyVersionList: versionsOf(policy).map((v) => ({
        ...v,
        IsDefaultVersion: v.VersionId === versionId,
      })),
    };
  });
  emit(ctx, "SetDefaultPolicyVersion", { policyArn: arn, versionId });
}

/** Deletes a version that is not the default, as IAM allows. */
export function deletePolicyVersion(ctx: ControlContext, arn: string, versionId: string) {
  updatePolicy(ctx, arn, (policy) => {
    const version = versionsOf(policy).find((v) => v.VersionId === versionId);
    if (!version)
      throw new FakeAwsError(
        "NoSuchEntity",
        `Policy ${arn} version ${versionId} does not exist.`,
        404,
      );
    if (version.IsDefaultVersion) {
      throw new FakeAwsError(
        "DeleteConflict",
        "Cannot delete the default version of a policy.",
        409,
      );
    }
    return {
      ...policy,
      PolicyVersionList: versionsOf(policy).filter((v) => v.VersionId !== versionId),
    };
  });
  emit(ctx, "DeletePolicyVersion", { policyArn: arn, versionId });
}

/** Deletes a customer managed policy that nothing uses any more, as IAM requires. */
export function deletePolicy(ctx: ControlContext, arn: string) {
  updatePolicy(ctx, arn, (policy) => {
    if (
      Number(policy.AttachmentCount ?? 0) + Number(policy.PermissionsBoundaryUsageCount ?? 0) >
      0
    ) {
      throw new FakeAwsError("DeleteConflict", "Cannot delete a policy attached to entities.", 409);
    }
    return policy;
  });
  replaceDetails(ctx.state, { Policies: details(ctx.state).Policies.filter((p) => p.Arn !== arn) });
  emit(ctx, "DeletePolicy", { policyArn: arn });
}
