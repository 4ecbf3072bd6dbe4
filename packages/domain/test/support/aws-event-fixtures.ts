import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TargetsOfEvent } from "../../src/index.ts";

/** One call as a fixture states it; the runner wraps it in an EventBridge envelope. */
export interface EventCase {
  name?: string;
  eventName: string;
  eventSource?: string;
  source?: string;
  awsRegion?: string;
  requestParameters?: unknown;
  responseElements?: unknown;
  userIdentity?: Record<string, unknown>;
  errorCode?: string;
  readOnly?: boolean;
  expect:
    | Extract<TargetsOfEvent, { status: "targets" }>
    | { status: "unknown" | "no-change"; reasonMentions?: string };
}

export interface EventFixture {
  description: string;
  eventSource: string;
  source?: string;
  awsRegion?: string;
  cases: EventCase[];
}

/** The JSON fixtures of `test/fixtures/aws-events`, by file name without `.json`. */
export function readEventFixtures(): { name: string; fixture: EventFixture }[] {
  const dir = join(import.meta.dirname, "..", "fixtures", "aws-events");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({
      name: file.replace(/\.json$/, ""),
      fixture: JSON.parse(readFileSync(join(dir, file), "utf8")) as EventFixture,
    }));
}

let sequence = 0;

/** The envelope an API destination posts for the case, as AWS's documented examples have it. */
export function envelopeOf(fixture: EventFixture, c: EventCase): Record<string, unknown> {
  sequence += 1;
  const eventSource = c.eventSource ?? fixture.eventSource;
  const region = c.awsRegion ?? fixture.awsRegion ?? "us-east-1";
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, "0")}`;
  return {
    version: "0",
    id,
    "detail-type": "AWS API Call via CloudTrail",
    source: c.source ?? fixture.source ?? `aws.${eventSource.split(".")[0]}`,
    account: "111122223333",
    time: "2026-11-29T07:05:01Z",
    region,
    resources: [],
    detail: {
      eventVersion: "1.09",
      userIdentity: c.userIdentity ?? {
        type: "AssumedRole",
        principalId: "AROAEXAMPLE:ops",
        arn: "arn:aws:sts::111122223333:assumed-role/ops/ops",
        accountId: "111122223333",
      },
      eventTime: "2026-11-29T07:05:00Z",
      eventSource,
      eventName: c.eventName,
      awsRegion: region,
      sourceIPAddress: "192.0.2.10",
      userAgent: "aws-cli/2.17.0",
      requestParameters: c.requestParameters ?? null,
      responseElements: c.responseElements ?? null,
      ...(c.errorCode ? { errorCode: c.errorCode, errorMessage: "refused" } : {}),
      requestID: `req-${id}`,
      eventID: `evt-${id}`,
      readOnly: c.readOnly ?? false,
      eventType: "AwsApiCall",
      managementEvent: true,
      recipientAccountId: "111122223333",
      eventCategory: "Management",
    },
  };
}
