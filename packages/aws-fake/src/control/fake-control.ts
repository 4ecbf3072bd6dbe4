import { type FakeState, partitionOf } from "../fake-state.ts";
import { queueOfUrl, sendMessage } from "../services/sqs-queues.ts";
import { type CloudTrailEvent, cloudTrailEvent } from "./cloudtrail-event.ts";
import { changeAccessKey, createAccessKey, setLoginProfile } from "./credential-control.ts";
import {
  createPolicy,
  createPolicyVersion,
  deletePolicy,
  deletePolicyVersion,
  setDefaultPolicyVersion,
} from "./iam-policy-control.ts";
import {
  attachPolicy,
  createPrincipal,
  deleteInlinePolicy,
  deletePrincipal,
  detachPolicy,
  putInlinePolicy,
  setGroupMembership,
  setPermissionsBoundary,
  tagPrincipal,
  updateAssumeRolePolicy,
} from "./iam-principal-control.ts";
import { type ControlContext, type PrincipalKind, replaceModel } from "./model-edits.ts";
import {
  changeKeyOf,
  changeOrganizationPolicy,
  createBucket,
  deleteBucket,
  type KeyStateChange,
  setBucketPolicy,
} from "./resource-control.ts";

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

export function createFakeControl(state: FakeState): FakeControl {
  const events: CloudTrailEvent[] = [];
  const posts: Promise<EventPost>[] = [];
  let destination: EventDestination | undefined;
  const ctx: ControlContext = {
    state,
    now: () => new Date(),
    emit(call) {
      const actor = { accountId: state.model.accountId, partition: partitionOf(state) };
      const event = cloudTrailEvent(call, actor, ctx.now());
      events.push(event);
      if (destination && "queueUrl" in destination) {
        sendMessage(queueOfUrl(state.queues, destination.queueUrl), JSON.stringify(event));
      } else if (destination) posts.push(post(destination, event));
    },
  };
  /** Runs a change and answers the event it emitted. */
  const run = (change: () => unknown): CloudTrailEvent => {
    const before = events.length;
    change();
    const event = events[before];
    if (!event) throw new Error("The change emitted no event");
    return event;
  };
  return {
    attachPolicy: (kind, name, arn) => run(() => attachPolicy(ctx, kind, name, arn)),
    detachPolicy: (kind, name, arn) => run(() => detachPolicy(ctx, kind, name, arn)),
    putInlinePolicy: (kind, name, policyName, document) =>
      run(() => putInlinePolicy(ctx, kind, name, policyName, document)),
    deleteInlinePolicy: (kind, name, policyName) =>
      run(() => deleteInlinePolicy(ctx, kind, name, policyName)),
    setPermissionsBoundary: (kind, name, arn) =>
      run(() => setPermissionsBoundary(ctx, kind, name, arn)),
    updateAssumeRolePolicy: (role, document) =>
      run(() => updateAssumeRolePolicy(ctx, role, document)),
    setGroupMembership: (group, user, member) =>
      run(() => setGroupMembership(ctx, group, user, member)),
    tag: (kind, name, tags) => run(() => tagPrincipal(ctx, kind, name, { tags })),
    untag: (kind, name, keys) => run(() => tagPrincipal(ctx, kind, name, { untag: keys })),
    create: (kind, name, trust) => run(() => createPrincipal(ctx, kind, name, trust)),
    delete: (kind, name) => run(() => deletePrincipal(ctx, kind, name)),
    createPolicy(name, document) {
      let arn = "";
      const event = run(() => {
        arn = createPolicy(ctx, name, document);
      });
      return { arn, event };
    },
    createPolicyVersion(arn, document, setAsDefault) {
      let versionId = "";
      const event = run(() => {
        versionId = createPolicyVersion(ctx, arn, document, setAsDefault);
      });
      return { versionId, event };
    },
    setDefaultPolicyVersion: (arn, versionId) =>
      run(() => setDefaultPolicyVersion(ctx, arn, versionId)),
    deletePolicyVersion: (arn, versionId) => run(() => deletePolicyVersion(ctx, arn, versionId)),
    deletePolicy: (arn) => run(() => deletePolicy(ctx, arn)),
    createAccessKey(user) {
      let accessKeyId = "";
      const event = run(() => {
        accessKeyId = createAccessKey(ctx, user);
      });
      return { accessKeyId, event };
    },
    changeAccessKey: (user, id, status) => run(() => changeAccessKey(ctx, user, id, status)),
    setLoginProfile: (user, enabled) => run(() => setLoginProfile(ctx, user, enabled)),
    setBucketPolicy: (bucket, policy) => run(() => setBucketPolicy(ctx, bucket, policy)),
    createBucket: (bucket, region) => run(() => createBucket(ctx, bucket, region)),
    deleteBucket: (bucket) => run(() => deleteBucket(ctx, bucket)),
    putKeyPolicy: (keyId, region, policy) => run(() => changeKeyOf(ctx, keyId, region, { policy })),
    changeKeyState: (keyId, region, event) => run(() => changeKeyOf(ctx, keyId, region, { event })),
    changeOrganizationPolicy: (policyId, change) =>
      run(() => changeOrganizationPolicy(ctx, policyId, change)),
    makeAdmin: (user) => run(() => attachPolicy(ctx, "user", user, administratorAccess(state))),
    cloudTrailEvents: () => [...events],
    setEventDestination(next) {
      destination = next;
    },
    eventPosts: () => Promise.all(posts),
  };
}

/** AWS's AdministratorAccess, known to every account: added to a model that lacks it. */
function administratorAccess(state: FakeState): string {
  const arn = `arn:${partitionOf(state)}:iam::aws:policy/AdministratorAccess`;
  const known = [
    ...(state.model.authorizationDetails?.Policies ?? []),
    ...(state.model.policiesOutsideGaad ?? []),
  ].some((policy) => policy.Arn === arn);
  if (!known) {
    const Document = {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
    };
    const policy = {
      PolicyName: "AdministratorAccess",
      PolicyId: "ANPAIWMBCKSKIEE64ZLYK",
      Arn: arn,
      Path: "/",
      DefaultVersionId: "v1",
      AttachmentCount: 0,
      PermissionsBoundaryUsageCount: 0,
      IsAttachable: true,
      PolicyVersionList: [{ Document, VersionId: "v1", IsDefaultVersion: true }],
    };
    replaceModel(state, {
      policiesOutsideGaad: [...(state.model.policiesOutsideGaad ?? []), policy],
    });
  }
  return arn;
}

async function post(
  destination: { url: string; token: string },
  event: CloudTrailEvent,
): Promise<EventPost> {
  try {
    const response = await fetch(destination.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sightline-event-token": destination.token },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return { eventId: event.detail.eventID, url: destination.url, status: response.status };
  } catch {
    return { eventId: event.detail.eventID, url: destination.url, status: 0 };
  }
}
