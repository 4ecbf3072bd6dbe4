import { accountOfArn } from "../arn/parse-arn.ts";
import type { AccountModel, ResourcePolicyRecord } from "../snapshot/account-model.ts";

export interface ResourceInfo {
  record?: ResourcePolicyRecord;
  /** Owning account when the ARN or the snapshots tell it. */
  accountId?: string;
  /** KMS keys and, for STS actions, IAM roles: their own policy must allow. */
  mustAllow: boolean;
  /** A KMS key the snapshots hold no key policy for: the default one is assumed. */
  missingKeyPolicy: boolean;
  /** A KMS key whose key policy could not be read (`unreadableKeyPolicies`): nothing is assumed. */
  keyPolicyUnread: boolean;
  /**
   * An S3 bucket (or object) whose account neither a bucket policy nor a bucket list names:
   * the same-account answer holds only on condition that the caller's account owns it.
   */
  ownerUnknown: boolean;
}

/** Finds the resource-based policy that governs `action` on `resource` (S3 objects use their bucket's). */
export function findResourcePolicy(
  model: AccountModel,
  action: string,
  resource: string,
): ResourceInfo {
  const service = action.split(":")[0]?.toLowerCase();
  let record = model.resourcePolicies.get(resource);
  if (!record && resource.includes(":s3:::")) {
    const bucket = resource.split("/")[0] ?? resource;
    record = model.resourcePolicies.get(bucket);
  }
  // A role's trust policy governs STS actions on it, not IAM actions such as iam:GetRole.
  if (record?.policy.type === "role-trust" && service !== "sts") record = undefined;
  const isKey = /^arn:[^:]+:kms:[^:]*:\d{12}:key\//.test(resource);
  const accountId = record?.accountId ?? accountOfArn(resource) ?? s3Owner(model, resource);
  const mustAllow =
    record?.policy.type === "role-trust" ||
    record?.policy.type === "kms-key" ||
    (isKey && service === "kms");
  // A key policy governs KMS actions only (as `mustAllow` says).
  const keyPolicyUnread =
    isKey && service === "kms" && !record && model.unreadableKeyPolicies.has(resource);
  return {
    ...(record && { record }),
    ...(accountId && { accountId }),
    mustAllow,
    missingKeyPolicy: isKey && !record && !keyPolicyUnread,
    keyPolicyUnread,
    ownerUnknown: !accountId && resource.includes(":s3:::"),
  };
}

function s3Owner(model: AccountModel, resource: string): string | undefined {
  if (!resource.includes(":s3:::")) return undefined;
  const bucket = resource.split("/")[0] ?? resource;
  return model.resourcePolicies.get(bucket)?.accountId ?? model.bucketOwners.get(bucket);
}
