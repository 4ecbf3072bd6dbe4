import { type FakeState, partitionOf } from "../fake-state.ts";
import { queueOfUrl, sendMessage } from "../services/sqs-queues.ts";
import { type CloudTrailEvent, cloudTrailEvent } from "./cloudtrail-event.ts";
import { administratorAccess, post } from "./control-defaults.ts";
import { changeAccessKey, createAccessKey, setLoginProfile } from "./credential-control.ts";
import type { EventDestination, EventPost, FakeControl } from "./fake-control-types.ts";
import {
  attachPolicy,
  deleteInlinePolicy,
  detachPolicy,
  putInlinePolicy,
  setPermissionsBoundary,
} from "./iam-policy-attachment-control.ts";
import {
  createPolicy,
  createPolicyVersion,
  deletePolicy,
  deletePolicyVersion,
  setDefaultPolicyVersion,
} from "./iam-policy-control.ts";
import {
  createPrincipal,
  deletePrincipal,
  setGroupMembership,
  tagPrincipal,
  updateAssumeRolePolicy,
} from "./iam-principal-control.ts";
import type { ControlContext } from "./model-edits.ts";
import {
  changeKeyOf,
  changeOrganizationPolicy,
  createBucket,
  deleteBucket,
  setBucketPolicy,
} from "./resource-control.ts";

export type { EventDestination, EventPost, FakeControl } from "./fake-control-types.ts";

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
