import { z } from "zod";
import { AwsAccountId } from "../identifiers.ts";

/** EventBridge's `detail-type` of a CloudTrail management event. */
export const CLOUDTRAIL_DETAIL_TYPE = "AWS API Call via CloudTrail";

/** EventBridge refuses larger events, so a larger body is not one it sent. */
export const MAX_AWS_EVENT_BYTES = 256 * 1024;

/** The header that carries the account's event token (the API destination's API-key auth). */
export const AWS_EVENT_TOKEN_HEADER = "x-sightline-event-token";

/** Event and CloudTrail IDs are deduplicated on: bounded, printable, never empty. */
const EventId = z
  .string()
  .regex(/^[\x21-\x7e]{1,128}$/, "must be 1 to 128 printable characters without spaces");

const Timestamp = z.iso.datetime({
  offset: true,
  error: "must be an ISO 8601 time, e.g. 2026-11-29T07:05:00Z",
});

const Region = z.string().regex(/^[a-z0-9-]{1,32}$/, "must be an AWS region, e.g. us-east-1");

/** A call's parameters or answer as CloudTrail logs them: an object, or null when there is none. */
const CallFields = z
  .record(z.string(), z.unknown(), { error: "must be an object or null" })
  .nullable()
  .default(null);

/** Who made the call; CloudTrail adds members by identity type, so unknown ones are kept. */
export const CloudTrailUserIdentity = z.looseObject({
  type: z.string().max(64).optional(),
  principalId: z.string().optional(),
  arn: z.string().optional(),
  accountId: z.string().optional(),
  userName: z.string().optional(),
  invokedBy: z.string().optional(),
});
export type CloudTrailUserIdentity = z.infer<typeof CloudTrailUserIdentity>;

/** The CloudTrail record EventBridge carries in `detail`. */
export const CloudTrailDetail = z.looseObject({
  eventVersion: z.string().max(16),
  eventSource: z
    .string()
    .regex(/^[a-z0-9.-]{1,128}$/, "must be a service endpoint, e.g. iam.amazonaws.com"),
  eventName: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, "must be an API operation's name (1 to 128 characters)"),
  eventID: EventId,
  eventTime: Timestamp,
  awsRegion: Region,
  recipientAccountId: AwsAccountId.optional(),
  userIdentity: CloudTrailUserIdentity,
  requestParameters: CallFields,
  responseElements: CallFields,
  /** Set when the call failed: it changed nothing. */
  errorCode: z.string().max(256).optional(),
  errorMessage: z.string().optional(),
  readOnly: z.boolean().optional(),
});
export type CloudTrailDetail = z.infer<typeof CloudTrailDetail>;

/**
 * The EventBridge envelope of a CloudTrail API call, as an API destination posts it to
 * `POST /events/aws` (or as SQS delivers it). Loose: AWS adds members over time, and an
 * unknown member must not refuse an event.
 */
export const AwsCloudTrailEvent = z.looseObject({
  version: z.string().max(16),
  id: EventId,
  "detail-type": z.literal(CLOUDTRAIL_DETAIL_TYPE, {
    error: `must be "${CLOUDTRAIL_DETAIL_TYPE}": Sightline reads CloudTrail's API calls only`,
  }),
  source: z.string().regex(/^aws\.[a-z0-9-]{1,64}$/, "must be an AWS source, e.g. aws.iam"),
  account: AwsAccountId,
  time: Timestamp,
  region: Region,
  resources: z.array(z.string().max(2048)).max(1000),
  detail: CloudTrailDetail,
});
export type AwsCloudTrailEvent = z.infer<typeof AwsCloudTrailEvent>;
