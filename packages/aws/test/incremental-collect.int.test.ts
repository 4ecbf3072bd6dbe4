import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { ACCOUNT_ID, KEY_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TemporaryCredentials } from "../src/aws-credentials.ts";
import { patchCollection } from "../src/incremental/patch-collection.ts";
import { fullCollectionCalls, incrementalReadCalls } from "../src/incremental/read-estimate.ts";
import { readEventTargets } from "../src/incremental/read-event-targets.ts";
import { assumeFixtureRole, collectWithFake } from "./fixtures/collect-with-fake.ts";
import { comparable } from "./fixtures/comparable.ts";
import { targetsOfEvents } from "./fixtures/targets-of-events.ts";

const allow = (action: string, resource = "*") => ({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: action, Resource: resource }],
});

describe("readEventTargets and patchCollection against the loopback fake", () => {
  let fake: FakeAws;
  let credentials: TemporaryCredentials;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
    credentials = await assumeFixtureRole(fake);
  });
  afterEach(async () => {
    await fake.close();
  });

  const readBack = (previous: Awaited<ReturnType<typeof collectWithFake>>) =>
    readEventTargets({
      credentials,
      accountId: ACCOUNT_ID,
      partition: "aws",
      clientOptions: fake.clientOptions,
      targets: targetsOfEvents(fake.control.cloudTrailEvents()),
      previous: previous.snapshot,
    });

  it("patches the changes of the demo into what a full collection reads, with only the reads named", async () => {
    const before = await collectWithFake(fake, { credentials });
    fake.control.makeAdmin("bob");
    fake.control.setBucketPolicy("logs", {
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { AWS: "arn:aws:iam::111122223333:root" },
          Action: "s3:GetObject",
          Resource: "arn:aws:s3:::logs/*",
        },
      ],
    });
    const callsBefore = fake.calls.length;
    const reads = await readBack(before);
    const operations = fake.calls
      .slice(callsBefore)
      .map((call) => `${call.service}:${call.operation}`);
    expect(new Set(operations)).toEqual(
      new Set([
        "iam:GetUser",
        "iam:ListUserPolicies",
        "iam:ListAttachedUserPolicies",
        "iam:ListGroupsForUser",
        "s3:GetBucketLocation",
        "s3:GetBucketPolicy",
        "s3:GetBucketTagging",
      ]),
    );
    const patched = patchCollection(before, reads);
    const after = await collectWithFake(fake, { credentials });
    expect(comparable(patched)).toEqual(comparable(after));
    expect(comparable(patched)).not.toEqual(comparable(before));
  });

  it("reads a deletion as a deletion, and a new user's managed policy that the snapshot lacks", async () => {
    const before = await collectWithFake(fake, { credentials });
    fake.control.create("user", "carol");
    fake.control.attachPolicy("user", "carol", "arn:aws:iam::aws:policy/ReadOnlyAccess");
    fake.control.delete("user", "alice");
    fake.control.delete("role", "Deployer");
    fake.control.changeKeyState(KEY_ID, "us-east-1", "ScheduleKeyDeletion");
    fake.control.putInlinePolicy("group", "developers", "extra", allow("sqs:*"));
    const reads = await readBack(before);
    expect(reads.users.alice).toBeNull();
    expect(reads.roles.Deployer).toBeNull();
    const patched = patchCollection(before, reads);
    const after = await collectWithFake(fake, { credentials });
    expect(comparable(patched)).toEqual(comparable(after));
  });

  it("fails INCREMENTAL_READ_DENIED, naming the action and the template, when the role refuses a new read", async () => {
    const before = await collectWithFake(fake, { credentials });
    fake.control.tag("user", "bob", { team: "ops" });
    fake.inject({ service: "iam", operation: "GetUser", kind: "access-denied" });
    const failure = await readBack(before).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "INCREMENTAL_READ_DENIED", retryable: false });
    expect(String((failure as Error).message)).toMatch(
      /iam:GetUser on arn:aws:iam::\d+:user\/bob was denied/,
    );
    expect(String((failure as Error).message)).toContain("deploy/aws/auditor-role.yaml");
  });

  it("classifies throttling as the full collection does", async () => {
    const before = await collectWithFake(fake, { credentials });
    fake.control.updateAssumeRolePolicy("Deployer", allow("sts:AssumeRole"));
    fake.inject({ service: "iam", operation: "ListAttachedRolePolicies", kind: "throttle" });
    const failure = await readEventTargets({
      credentials,
      accountId: ACCOUNT_ID,
      partition: "aws",
      clientOptions: { ...fake.clientOptions, maxAttempts: 1 },
      targets: targetsOfEvents(fake.control.cloudTrailEvents()),
      previous: before.snapshot,
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "THROTTLED", retryable: true });
  });

  it("estimates the calls of a read-back and of a full collection as the fake counts them", async () => {
    // GAAD's pages as AWS cuts them (the small account's are smaller, to test the paging).
    await fake.close();
    fake = await startFakeAws({ ...smallAccount, gaadPageSize: 1000 });
    credentials = await assumeFixtureRole(fake);
    // The organisation is read the same way by both, and not counted.
    const counted = (from: number) =>
      fake.calls.slice(from).filter((call) => call.service !== "organizations").length;
    let from = fake.calls.length;
    const before = await collectWithFake(fake, { credentials });
    // Less by one: the fixture's key pending deletion is described, and not kept in a collection.
    expect(fullCollectionCalls(before)).toBe(counted(from) - 1);
    fake.control.makeAdmin("bob");
    fake.control.putInlinePolicy("role", "Deployer", "extra", allow("sqs:*"));
    fake.control.createAccessKey("alice");
    fake.control.create("user", "carol");
    fake.control.changeKeyState(KEY_ID, "us-east-1", "DisableKey");
    fake.control.createPolicyVersion(
      `arn:aws:iam::${ACCOUNT_ID}:policy/deploy`,
      allow("s3:*"),
      true,
    );
    const targets = targetsOfEvents(fake.control.cloudTrailEvents());
    from = fake.calls.length;
    await readBack(before);
    // Near, not exact: the events add inline policies and keys that the snapshot did not know.
    expect(Math.abs(incrementalReadCalls(targets, before) - counted(from))).toBeLessThanOrEqual(2);
  });
});
