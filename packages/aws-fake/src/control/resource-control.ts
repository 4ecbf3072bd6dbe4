import { FakeAwsError } from "../fake-errors.ts";
import type { FakeBucket, FakeKey, FakeOrganization } from "../fake-model.ts";
import { findKey, keyArn, keyRegion } from "../services/kms-keys.ts";
import { findBucket } from "../services/s3-store.ts";
import { type ControlContext, replaceModel } from "./model-edits.ts";

const s3Host = (bucket: string) => `${bucket}.s3.amazonaws.com`;

function replaceBucket(
  ctx: ControlContext,
  name: string,
  change: (bucket: FakeBucket) => FakeBucket,
) {
  findBucket(ctx.state, name);
  const buckets = (ctx.state.model.buckets ?? []).map((b) => (b.name === name ? change(b) : b));
  replaceModel(ctx.state, { buckets });
}

/** `PutBucketPolicy` (a policy) or `DeleteBucketPolicy` (undefined). */
export function setBucketPolicy(ctx: ControlContext, name: string, policy: object | undefined) {
  replaceBucket(ctx, name, ({ policy: _, ...bucket }) => (policy ? { ...bucket, policy } : bucket));
  const region = findBucket(ctx.state, name).region ?? "us-east-1";
  ctx.emit({
    service: "s3",
    eventName: policy ? "PutBucketPolicy" : "DeleteBucketPolicy",
    region,
    requestParameters: {
      bucketName: name,
      Host: s3Host(name),
      policy: [""],
      ...(policy ? { bucketPolicy: policy } : {}),
    },
  });
}

export function createBucket(ctx: ControlContext, name: string, region = "us-east-1") {
  if ((ctx.state.model.buckets ?? []).some((bucket) => bucket.name === name)) {
    throw new FakeAwsError(
      "BucketAlreadyOwnedByYou",
      "Your previous request to create the named bucket succeeded.",
      409,
    );
  }
  replaceModel(ctx.state, { buckets: [...(ctx.state.model.buckets ?? []), { name, region }] });
  const configuration =
    region === "us-east-1" ? {} : { CreateBucketConfiguration: { LocationConstraint: region } };
  ctx.emit({
    service: "s3",
    eventName: "CreateBucket",
    region,
    requestParameters: { bucketName: name, Host: s3Host(name), ...configuration },
  });
}

export function deleteBucket(ctx: ControlContext, name: string) {
  const region = findBucket(ctx.state, name).region ?? "us-east-1";
  replaceModel(ctx.state, {
    buckets: (ctx.state.model.buckets ?? []).filter((b) => b.name !== name),
  });
  ctx.emit({
    service: "s3",
    eventName: "DeleteBucket",
    region,
    requestParameters: { bucketName: name, Host: s3Host(name) },
  });
}

function changeKey(
  ctx: ControlContext,
  keyId: string,
  region: string,
  change: (key: FakeKey) => FakeKey,
) {
  const found = findKey(ctx.state, region, keyId);
  const keys = (ctx.state.model.keys ?? []).map((key) => (key === found ? change(key) : key));
  replaceModel(ctx.state, { keys });
  return found;
}

const KEY_STATE_EVENTS = {
  EnableKey: "Enabled",
  DisableKey: "Disabled",
  ScheduleKeyDeletion: "PendingDeletion",
  CancelKeyDeletion: "Disabled",
} as const;
export type KeyStateChange = keyof typeof KEY_STATE_EVENTS;

/** `PutKeyPolicy`, or a change of the key's state (`DisableKey`, `ScheduleKeyDeletion`, …). */
export function changeKeyOf(
  ctx: ControlContext,
  keyId: string,
  region: string,
  change: { readonly policy: object } | { readonly event: KeyStateChange },
) {
  const key = changeKey(ctx, keyId, region, (current) =>
    "policy" in change
      ? { ...current, policy: change.policy }
      : { ...current, state: KEY_STATE_EVENTS[change.event] },
  );
  const arn = keyArn(ctx.state, key);
  const requestParameters =
    "policy" in change
      ? {
          keyId: key.keyId,
          policyName: "default",
          policy: JSON.stringify(change.policy),
          bypassPolicyLockoutSafetyCheck: false,
        }
      : change.event === "ScheduleKeyDeletion"
        ? { keyId: key.keyId, pendingWindowInDays: 7 }
        : { keyId: key.keyId };
  ctx.emit({
    service: "kms",
    eventName: "policy" in change ? "PutKeyPolicy" : change.event,
    region: keyRegion(key),
    requestParameters,
    ...("event" in change && change.event !== "EnableKey" && change.event !== "DisableKey"
      ? { responseElements: { keyId: arn, keyState: KEY_STATE_EVENTS[change.event] } }
      : {}),
    resources: [{ accountId: ctx.state.model.accountId, type: "AWS::KMS::Key", ARN: arn }],
  });
}

function changeOrganization(
  ctx: ControlContext,
  change: (org: FakeOrganization) => FakeOrganization,
) {
  const org = ctx.state.model.organization;
  if (!org)
    throw new FakeAwsError(
      "AWSOrganizationsNotInUseException",
      "Your account is not a member of an organization.",
      400,
    );
  replaceModel(ctx.state, { organization: change(org) });
  return org;
}

/** `AttachPolicy`/`DetachPolicy` of an SCP or RCP to a root, OU or account, or `UpdatePolicy`. */
export function changeOrganizationPolicy(
  ctx: ControlContext,
  policyId: string,
  change: { readonly attach: string } | { readonly detach: string } | { readonly document: object },
) {
  const org = changeOrganization(ctx, (current) => {
    if (!current.policies.some((policy) => policy.id === policyId)) {
      throw new FakeAwsError("PolicyNotFoundException", `${policyId} not found`, 400);
    }
    const policies = current.policies.map((policy) => {
      if (policy.id !== policyId) return policy;
      if ("document" in change) return { ...policy, document: change.document };
      const others = policy.targets.filter(
        (target) => target !== ("attach" in change ? change.attach : change.detach),
      );
      return { ...policy, targets: "attach" in change ? [...others, change.attach] : others };
    });
    return { ...current, policies };
  });
  const [eventName, requestParameters] =
    "document" in change
      ? ["UpdatePolicy", { policyId, content: JSON.stringify(change.document) }]
      : [
          "attach" in change ? "AttachPolicy" : "DetachPolicy",
          { policyId, targetId: "attach" in change ? change.attach : change.detach },
        ];
  ctx.emit({
    service: "organizations",
    eventName,
    region: "us-east-1",
    requestParameters,
    accountId: org.managementAccountId,
  });
}
