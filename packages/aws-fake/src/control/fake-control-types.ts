import type { CloudTrailEvent } from "./cloudtrail-event.ts";
import type { PrincipalKind } from "./model-edits.ts";
import type { KeyStateChange } from "./resource-control.ts";

/**
 * Where each event goes: posted as EventBridge's API destination would post it (`url`, with
 * the token as `x-sightline-event-token`), or sent to a queue of this fake as EventBridge's
 * SQS target would (`queueUrl`: the message body is the envelope).
 */
export type EventDestination =
  | { readonly url: string; readonly token: string }
  | { readonly queueUrl: string };

/** One post of an event to the destination, and what it answered (0: no answer). */
export interface EventPost {
  readonly eventId: string;
  readonly url: string;
  readonly status: number;
}

/**
 * Changes to the account as its administrators would make them through AWS's APIs. Each
 * changes what every read of the fake answers (GAAD, the credential report and the
 * per-entity reads alike) and records the CloudTrail event AWS would emit; a refused change
 * throws the error AWS would answer (`NoSuchEntity`, `DeleteConflict`, …) and emits nothing.
 */
export interface FakeControl {
  attachPolicy(kind: PrincipalKind, name: string, policyArn: string): CloudTrailEvent;
  detachPolicy(kind: PrincipalKind, name: string, policyArn: string): CloudTrailEvent;
  putInlinePolicy(
    kind: PrincipalKind,
    name: string,
    policyName: string,
    document: object,
  ): CloudTrailEvent;
  deleteInlinePolicy(kind: PrincipalKind, name: string, policyName: string): CloudTrailEvent;
  /** An ARN sets the boundary, undefined removes it. */
  setPermissionsBoundary(
    kind: "user" | "role",
    name: string,
    policyArn: string | undefined,
  ): CloudTrailEvent;
  updateAssumeRolePolicy(role: string, document: object): CloudTrailEvent;
  setGroupMembership(group: string, user: string, member: boolean): CloudTrailEvent;
  tag(kind: "user" | "role", name: string, tags: Readonly<Record<string, string>>): CloudTrailEvent;
  untag(kind: "user" | "role", name: string, keys: readonly string[]): CloudTrailEvent;
  /** A user, group, or role with its trust policy. */
  create(kind: PrincipalKind, name: string, trustPolicy?: object): CloudTrailEvent;
  delete(kind: PrincipalKind, name: string): CloudTrailEvent;
  createPolicy(name: string, document: object): { arn: string; event: CloudTrailEvent };
  createPolicyVersion(
    arn: string,
    document: object,
    setAsDefault: boolean,
  ): { versionId: string; event: CloudTrailEvent };
  setDefaultPolicyVersion(arn: string, versionId: string): CloudTrailEvent;
  deletePolicyVersion(arn: string, versionId: string): CloudTrailEvent;
  deletePolicy(arn: string): CloudTrailEvent;
  createAccessKey(user: string): { accessKeyId: string; event: CloudTrailEvent };
  /** A status updates the key, undefined deletes it. */
  changeAccessKey(
    user: string,
    accessKeyId: string,
    status: "Active" | "Inactive" | undefined,
  ): CloudTrailEvent;
  setLoginProfile(user: string, enabled: boolean): CloudTrailEvent;
  /** A policy puts it, undefined deletes it. */
  setBucketPolicy(bucket: string, policy: object | undefined): CloudTrailEvent;
  createBucket(bucket: string, region?: string): CloudTrailEvent;
  deleteBucket(bucket: string): CloudTrailEvent;
  putKeyPolicy(keyId: string, region: string, policy: object): CloudTrailEvent;
  changeKeyState(keyId: string, region: string, event: KeyStateChange): CloudTrailEvent;
  changeOrganizationPolicy(
    policyId: string,
    change:
      | { readonly attach: string }
      | { readonly detach: string }
      | { readonly document: object },
  ): CloudTrailEvent;
  /** AWS's AdministratorAccess attached to the user (the demo's change). */
  makeAdmin(user: string): CloudTrailEvent;
  /** Every event emitted so far, oldest first. */
  cloudTrailEvents(): readonly CloudTrailEvent[];
  /** Sends each later event there (undefined: stops sending). */
  setEventDestination(destination: EventDestination | undefined): void;
  /** Waits for the posts under way; every post so far. */
  eventPosts(): Promise<readonly EventPost[]>;
}
