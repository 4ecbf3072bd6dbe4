import { parseArn } from "@sightline/engine/arn";
import type { AwsCloudTrailEvent } from "./aws-event.ts";
import type { AwsEventName } from "./aws-event-names.ts";
import {
  BUCKET_NAME,
  KEY_ID,
  missing,
  parameter,
  response,
  type TargetReader,
  type TargetsOfEvent,
  targets,
} from "./read-event-fields.ts";

const REGION = /^[a-z0-9-]{1,32}$/;

const bucket: TargetReader = (event) => {
  const name = parameter(event, "bucketName", BUCKET_NAME);
  return name ? targets({ kind: "bucket", name }) : missing(event, "bucket (bucketName)");
};

/** A key as the event names it, in the ARN's region when it is an ARN, else the event's. */
function key(keyId: string, eventRegion: string): TargetsOfEvent {
  const region = parseArn(keyId)?.region || eventRegion;
  return targets({ kind: "key", keyId, region });
}

const namedKey: TargetReader = (event) => {
  const keyId = parameter(event, "keyId", KEY_ID);
  return keyId ? key(keyId, event.detail.awsRegion) : missing(event, "key (keyId)");
};

/** A new key's ID is in the answer only. */
const createdKey: TargetReader = (event) => {
  const keyId =
    response(event, KEY_ID, "keyMetadata", "arn") ??
    response(event, KEY_ID, "keyMetadata", "keyId");
  return keyId ? key(keyId, event.detail.awsRegion) : missing(event, "key (keyMetadata.keyId)");
};

/**
 * The replica is made in another region (KMS logs a `CreateKey` there too, which the
 * replica region's rule forwards): read it where it lives.
 */
const replicatedKey: TargetReader = (event) => {
  const keyId =
    response(event, KEY_ID, "replicaKeyMetadata", "arn") ?? parameter(event, "keyId", KEY_ID);
  const region = parameter(event, "replicaRegion", REGION);
  if (!keyId || !region) return missing(event, "replica (keyId and replicaRegion)");
  return targets({ kind: "key", keyId, region: parseArn(keyId)?.region || region });
};

const S3_READERS: Record<AwsEventName<"s3.amazonaws.com">, TargetReader> = {
  CreateBucket: bucket,
  DeleteBucket: bucket,
  PutBucketPolicy: bucket,
  DeleteBucketPolicy: bucket,
};

const KMS_READERS: Record<AwsEventName<"kms.amazonaws.com">, TargetReader> = {
  CreateKey: createdKey,
  ReplicateKey: replicatedKey,
  PutKeyPolicy: namedKey,
  EnableKey: namedKey,
  DisableKey: namedKey,
  ScheduleKeyDeletion: namedKey,
  CancelKeyDeletion: namedKey,
};

export function targetsOfS3Event(
  event: AwsCloudTrailEvent,
  name: AwsEventName<"s3.amazonaws.com">,
): TargetsOfEvent {
  return S3_READERS[name](event);
}

export function targetsOfKmsEvent(
  event: AwsCloudTrailEvent,
  name: AwsEventName<"kms.amazonaws.com">,
): TargetsOfEvent {
  return KMS_READERS[name](event);
}
