import { describe, expect, it } from "vitest";
import { AwsCloudTrailEvent, MAX_AWS_EVENT_BYTES, toValidationIssues } from "../src/index.ts";

/** The shape of EventBridge's documented CloudTrail example (IAM, us-east-1), trimmed. */
const attachRolePolicy = {
  version: "0",
  id: "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
  "detail-type": "AWS API Call via CloudTrail",
  source: "aws.iam",
  account: "111122223333",
  time: "2026-11-29T07:05:01Z",
  region: "us-east-1",
  resources: [],
  detail: {
    eventVersion: "1.09",
    userIdentity: {
      type: "AssumedRole",
      principalId: "AROAEXAMPLE:ops",
      arn: "arn:aws:sts::111122223333:assumed-role/ops/ops",
      accountId: "111122223333",
      sessionContext: { sessionIssuer: { type: "Role", userName: "ops" } },
    },
    eventTime: "2026-11-29T07:05:00Z",
    eventSource: "iam.amazonaws.com",
    eventName: "AttachRolePolicy",
    awsRegion: "us-east-1",
    sourceIPAddress: "192.0.2.10",
    requestParameters: {
      roleName: "deploy",
      policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
    },
    responseElements: null,
    requestID: "0c1e3b4f-0000-4000-8000-000000000001",
    eventID: "2d7e3c1a-0000-4000-8000-000000000002",
    readOnly: false,
    eventType: "AwsApiCall",
    managementEvent: true,
    recipientAccountId: "111122223333",
    eventCategory: "Management",
    tlsDetails: { tlsVersion: "TLSv1.3" },
  },
};

const issuesOf = (body: unknown) => {
  const parsed = AwsCloudTrailEvent.safeParse(body);
  expect(parsed.success).toBe(false);
  return toValidationIssues(parsed.error?.issues ?? [], "body");
};

describe("AwsCloudTrailEvent", () => {
  it("reads EventBridge's CloudTrail envelope and keeps the members AWS adds", () => {
    const event = AwsCloudTrailEvent.parse(attachRolePolicy);
    expect(event.detail.eventName).toBe("AttachRolePolicy");
    expect(event.detail.requestParameters).toEqual(attachRolePolicy.detail.requestParameters);
    expect(event.detail.tlsDetails).toEqual({ tlsVersion: "TLSv1.3" });
    expect(event.detail.userIdentity.sessionContext).toBeDefined();
  });

  it("takes absent parameters and answers as null", () => {
    const { requestParameters: _, responseElements: __, ...detail } = attachRolePolicy.detail;
    const event = AwsCloudTrailEvent.parse({ ...attachRolePolicy, detail });
    expect(event.detail.requestParameters).toBeNull();
    expect(event.detail.responseElements).toBeNull();
  });

  it("refuses another kind of EventBridge event, naming detail-type and the rule", () => {
    const scheduled = {
      version: "0",
      id: "89d1a02d-5ec7-412e-82f5-13505f849b41",
      "detail-type": "Scheduled Event",
      source: "aws.events",
      account: "111122223333",
      time: "2026-11-29T07:00:00Z",
      region: "us-east-1",
      resources: ["arn:aws:events:us-east-1:111122223333:rule/nightly"],
      detail: {},
    };
    const issues = issuesOf(scheduled);
    expect(issues).toContainEqual({
      path: "body.detail-type",
      message:
        'must be "AWS API Call via CloudTrail": Sightline reads CloudTrail\'s API calls only',
    });
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["body.detail.eventName", "body.detail.eventID"]),
    );
  });

  it("refuses a body that is no EventBridge event at all", () => {
    const paths = issuesOf({ hello: "world" }).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(["body.id", "body.detail-type", "body.account", "body.detail"]),
    );
  });

  it("names the field and its rule for a malformed account, time and parameters", () => {
    const issues = issuesOf({
      ...attachRolePolicy,
      account: "1111",
      time: "yesterday",
      detail: { ...attachRolePolicy.detail, requestParameters: "roleName=deploy" },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "body.account", message: "must be exactly 12 digits" },
        { path: "body.time", message: "must be an ISO 8601 time, e.g. 2026-11-29T07:05:00Z" },
        { path: "body.detail.requestParameters", message: "must be an object or null" },
      ]),
    );
  });

  it("refuses event IDs that cannot be deduplicated on", () => {
    const long = { ...attachRolePolicy.detail, eventID: "x".repeat(129) };
    expect(issuesOf({ ...attachRolePolicy, detail: long }).map((i) => i.path)).toEqual([
      "body.detail.eventID",
    ]);
    expect(issuesOf({ ...attachRolePolicy, id: "" }).map((i) => i.path)).toEqual(["body.id"]);
  });

  it("bounds an event at EventBridge's 256 KiB", () => {
    expect(MAX_AWS_EVENT_BYTES).toBe(262_144);
  });
});
