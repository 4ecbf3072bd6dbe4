import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeAws, startFakeAws } from "../src/fake-aws.ts";
import { ACCOUNT_ID, KEY_ARN, KEY_ID, model } from "../src/small-account.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("the fake's control and its CloudTrail events", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(model);
  });
  afterEach(async () => {
    await fake.close();
  });

  it("emits the EventBridge envelope of each change, as CloudTrail records the call", () => {
    const iam = fake.control.putInlinePolicy("role", "Deployer", "ship", {
      Version: "2012-10-17",
      Statement: [],
    });
    expect(iam).toMatchObject({
      version: "0",
      "detail-type": "AWS API Call via CloudTrail",
      source: "aws.iam",
      account: ACCOUNT_ID,
      region: "us-east-1",
      resources: [],
      detail: {
        eventVersion: expect.any(String),
        eventSource: "iam.amazonaws.com",
        eventName: "PutRolePolicy",
        awsRegion: "us-east-1",
        requestParameters: {
          roleName: "Deployer",
          policyName: "ship",
          policyDocument: '{"Version":"2012-10-17","Statement":[]}',
        },
        responseElements: null,
        userIdentity: { type: "IAMUser", accountId: ACCOUNT_ID },
        recipientAccountId: ACCOUNT_ID,
      },
    });
    expect(iam.id).toMatch(UUID);
    expect(iam.detail.eventID).toMatch(UUID);
    expect(iam.time).toBe(iam.detail.eventTime);
    expect(iam.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const s3 = fake.control.setBucketPolicy("reports", undefined);
    expect(s3).toMatchObject({ source: "aws.s3", region: "eu-west-1" });
    expect(s3.detail).toMatchObject({
      eventName: "DeleteBucketPolicy",
      requestParameters: { bucketName: "reports" },
    });
    const kms = fake.control.changeKeyState(KEY_ID, "us-east-1", "DisableKey");
    expect(kms.detail).toMatchObject({
      eventSource: "kms.amazonaws.com",
      eventName: "DisableKey",
      requestParameters: { keyId: KEY_ID },
      resources: [{ ARN: KEY_ARN, type: "AWS::KMS::Key", accountId: ACCOUNT_ID }],
    });
    const scp = fake.control.changeOrganizationPolicy("p-guardrails", { detach: "ou-root-prod" });
    expect(scp).toMatchObject({ source: "aws.organizations", account: "111111111111" });
    expect(scp.detail.requestParameters).toEqual({
      policyId: "p-guardrails",
      targetId: "ou-root-prod",
    });
    expect(fake.control.cloudTrailEvents().map((event) => event.detail.eventName)).toEqual([
      "PutRolePolicy",
      "DeleteBucketPolicy",
      "DisableKey",
      "DetachPolicy",
    ]);
  });

  it("changes what the fake serves without touching the model it was given, and a refused change emits nothing", () => {
    const before = JSON.stringify(model);
    fake.control.makeAdmin("bob");
    expect(JSON.stringify(model)).toBe(before);
    const bob = fake.model.authorizationDetails?.UserDetailList?.find(
      (user) => user.UserName === "bob",
    );
    expect(bob?.AttachedManagedPolicies).toEqual([
      {
        PolicyName: "AdministratorAccess",
        PolicyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
      },
    ]);
    const admin = fake.model.authorizationDetails?.Policies?.find(
      (policy) => policy.PolicyName === "AdministratorAccess",
    );
    expect(admin?.AttachmentCount).toBe(2);
    expect(() => fake.control.delete("group", "developers")).toThrow(
      /must remove users from group first/,
    );
    expect(() =>
      fake.control.detachPolicy("user", "bob", "arn:aws:iam::aws:policy/ReadOnlyAccess"),
    ).toThrow();
    expect(fake.control.cloudTrailEvents()).toHaveLength(1);
  });

  it("posts each event to the destination with the event token, once one is set", async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      fake.control.makeAdmin("alice");
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events/aws`;
      fake.control.setEventDestination({ url, token: "event-token-0123456789" });
      const event = fake.control.makeAdmin("bob");
      const posts = await fake.control.eventPosts();
      expect(posts).toEqual([{ eventId: event.detail.eventID, url, status: 202 }]);
      expect(received).toHaveLength(1);
      expect(received[0]?.headers["x-sightline-event-token"]).toBe("event-token-0123456789");
      expect(received[0]?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(received[0]?.body ?? "{}")).toEqual(event);
    } finally {
      server.close();
    }
  });
});
