import { describe, expect, it } from "vitest";
import {
  AWS_EVENT_NAMES,
  AwsCloudTrailEvent,
  type AwsEventRulePattern,
  awsEventRulePattern,
  isAwsEventName,
  isAwsEventSource,
  targetsOfEvent,
} from "../src/index.ts";
import { envelopeOf, readEventFixtures } from "./support/aws-event-fixtures.ts";

/** EventBridge's matching for patterns of exact values: every field's value is in its list. */
function matches(pattern: AwsEventRulePattern, event: AwsCloudTrailEvent): boolean {
  return (
    pattern.source.includes(event.source) &&
    pattern["detail-type"].includes(event["detail-type"]) &&
    pattern.detail.eventSource.includes(event.detail.eventSource) &&
    pattern.detail.eventName.includes(event.detail.eventName)
  );
}

const isListed = ({ detail }: AwsCloudTrailEvent) =>
  isAwsEventSource(detail.eventSource) && isAwsEventName(detail.eventSource, detail.eventName);

describe("awsEventRulePattern", () => {
  const pattern = awsEventRulePattern();

  it("lists exactly the listed names, sources and CloudTrail's detail-type", () => {
    const names = Object.values(AWS_EVENT_NAMES).flat();
    expect(new Set(pattern.detail.eventName)).toEqual(new Set(names));
    expect(pattern.detail.eventName).toEqual([...new Set(names)].sort());
    expect(pattern.detail.eventSource).toEqual(Object.keys(AWS_EVENT_NAMES).sort());
    expect(pattern.source).toEqual(["aws.iam", "aws.kms", "aws.organizations", "aws.s3"]);
    expect(pattern["detail-type"]).toEqual(["AWS API Call via CloudTrail"]);
  });

  it("fits EventBridge's default event pattern size of 2,048 characters", () => {
    expect(JSON.stringify(pattern).length).toBeLessThanOrEqual(2048);
  });

  it("forwards every event that asks for a read, and no call Sightline does not read", () => {
    let forwarded = 0;
    for (const { fixture } of readEventFixtures()) {
      for (const c of fixture.cases) {
        const event = AwsCloudTrailEvent.parse(envelopeOf(fixture, c));
        const outcome = targetsOfEvent(event);
        if (outcome.status === "targets") {
          expect(matches(pattern, event), c.eventName).toBe(true);
          forwarded += 1;
        }
        if (outcome.status === "unknown" && !isListed(event))
          expect(matches(pattern, event), c.eventName).toBe(false);
      }
    }
    expect(forwarded).toBeGreaterThan(60);
  });

  it("does not forward what the collection does not read", () => {
    for (const [eventSource, eventName] of [
      ["s3.amazonaws.com", "PutBucketAcl"],
      ["s3.amazonaws.com", "PutPublicAccessBlock"],
      ["kms.amazonaws.com", "CreateGrant"],
      ["iam.amazonaws.com", "UpdateRole"],
      ["iam.amazonaws.com", "GetRole"],
    ] as const) {
      expect(pattern.detail.eventName, `${eventSource} ${eventName}`).not.toContain(eventName);
    }
  });
});
