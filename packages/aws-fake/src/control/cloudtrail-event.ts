import { randomUUID } from "node:crypto";

/** The `detail` of an EventBridge "AWS API Call via CloudTrail" event: the CloudTrail record. */
export interface CloudTrailDetail {
  readonly eventVersion: string;
  readonly userIdentity: Readonly<Record<string, unknown>>;
  readonly eventTime: string;
  readonly eventSource: string;
  readonly eventName: string;
  readonly awsRegion: string;
  readonly sourceIPAddress: string;
  readonly userAgent: string;
  readonly requestParameters: Readonly<Record<string, unknown>> | null;
  readonly responseElements: Readonly<Record<string, unknown>> | null;
  readonly requestID: string;
  readonly eventID: string;
  readonly readOnly: false;
  readonly eventType: "AwsApiCall";
  readonly managementEvent: true;
  readonly recipientAccountId: string;
  readonly eventCategory: "Management";
  readonly resources?: readonly Readonly<Record<string, string>>[];
}

/** The EventBridge envelope AWS delivers a CloudTrail management event in. */
export interface CloudTrailEvent {
  readonly version: "0";
  readonly id: string;
  readonly "detail-type": "AWS API Call via CloudTrail";
  readonly source: `aws.${string}`;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: CloudTrailDetail;
}

/** What a control change says of itself; the rest of the envelope is the same for all. */
export interface CloudTrailCall {
  /** `iam`, `s3`, `kms`, `organizations`. */
  readonly service: string;
  readonly eventName: string;
  /** IAM and Organizations answer in us-east-1; S3 and KMS in the resource's region. */
  readonly region: string;
  readonly requestParameters: Readonly<Record<string, unknown>> | null;
  readonly responseElements?: Readonly<Record<string, unknown>> | null;
  /** The account that records the call, when not the model's (Organizations: the management account). */
  readonly accountId?: string;
  /** CloudTrail's own `resources` (KMS names the key). */
  readonly resources?: readonly Readonly<Record<string, string>>[];
}

/** CloudTrail's times carry no milliseconds. */
export const cloudTrailTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The envelope of one call made by `actor` (an IAM user of the account) at `date`. */
export function cloudTrailEvent(
  call: CloudTrailCall,
  actor: { readonly accountId: string; readonly partition: string },
  date: Date,
): CloudTrailEvent {
  const time = cloudTrailTime(date);
  const accountId = call.accountId ?? actor.accountId;
  return {
    version: "0",
    id: randomUUID(),
    "detail-type": "AWS API Call via CloudTrail",
    source: `aws.${call.service}`,
    account: accountId,
    time,
    region: call.region,
    resources: [],
    detail: {
      eventVersion: "1.09",
      userIdentity: {
        type: "IAMUser",
        principalId: "AIDAFAKEADMINISTRATOR",
        arn: `arn:${actor.partition}:iam::${accountId}:user/administrator`,
        accountId,
        accessKeyId: "AKIAFAKEADMINISTRATOR",
        userName: "administrator",
      },
      eventTime: time,
      eventSource: `${call.service}.amazonaws.com`,
      eventName: call.eventName,
      awsRegion: call.region,
      sourceIPAddress: "192.0.2.10",
      userAgent: "aws-cli/2.17.0",
      requestParameters: call.requestParameters,
      responseElements: call.responseElements ?? null,
      requestID: randomUUID(),
      eventID: randomUUID(),
      readOnly: false,
      eventType: "AwsApiCall",
      managementEvent: true,
      recipientAccountId: accountId,
      eventCategory: "Management",
      ...(call.resources ? { resources: call.resources } : {}),
    },
  };
}
