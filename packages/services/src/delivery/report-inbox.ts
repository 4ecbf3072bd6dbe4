import { createS3Inbox, type MultipartUploadHooks } from "@sightline/aws";
import type { DeliverySettings } from "@sightline/db";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import { createFolderInbox } from "./folder-inbox.ts";

/** Where a run's objects go: an S3 secure inbox, or the local folder inbox. */
export interface ReportInbox {
  /** `s3://bucket` or the folder, for logs and messages. */
  readonly location: string;
  /** `sha256`: the file's hex digest, which the store checks on receipt. */
  putFile(
    key: string,
    path: string,
    options: { contentType: string; sha256: string },
  ): Promise<unknown>;
  putBytes(key: string, bytes: Uint8Array, options: { contentType: string }): Promise<unknown>;
  /** Places a copy of an object already in the inbox (of digest `sha256`) under another key. */
  copyObject(sourceKey: string, key: string, options: { sha256: string }): Promise<unknown>;
  /** Removes an object; a missing one is no error. */
  deleteObject(key: string): Promise<void>;
  /** A small object's text, or undefined when there is none at `key`. */
  readText(key: string): Promise<string | undefined>;
  destroy(): void;
}

/**
 * The owner's S3 inbox, encrypted with its KMS key, written with Sightline's own credentials
 * (and only in a bucket of the expected owner, when configured); without a bucket, the local
 * folder inbox under the data directory. `uploads` is told of each multipart upload.
 */
export function openReportInbox(
  settings: AnalysisSettings,
  delivery: DeliverySettings,
  uploads?: MultipartUploadHooks,
): ReportInbox {
  if (!delivery.bucketName || !delivery.kmsKeyId)
    return createFolderInbox(settings.inboxDir, settings.files);
  const inbox = createS3Inbox({
    bucket: delivery.bucketName,
    kmsKeyId: delivery.kmsKeyId,
    ...(delivery.expectedBucketOwner ? { expectedBucketOwner: delivery.expectedBucketOwner } : {}),
    ...(settings.serviceCredentials ? { credentials: settings.serviceCredentials } : {}),
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
    ...settings.delivery,
    ...(uploads ? { multipartUploads: uploads } : {}),
  });
  return { ...inbox, location: `s3://${delivery.bucketName}` };
}
