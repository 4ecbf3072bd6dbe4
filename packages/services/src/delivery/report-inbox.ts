import { createS3Inbox } from "@sightline/aws";
import type { DeliverySettings } from "@sightline/db";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import { createFolderInbox } from "./folder-inbox.ts";

/** Where a run's objects go: an S3 secure inbox, or the local folder inbox. */
export interface ReportInbox {
  /** `s3://bucket` or the folder, for logs and messages. */
  readonly location: string;
  putFile(key: string, path: string, options: { contentType: string }): Promise<unknown>;
  putBytes(key: string, bytes: Uint8Array, options: { contentType: string }): Promise<unknown>;
  /** Places a copy of an object already in the inbox under another key. */
  copyObject(sourceKey: string, key: string): Promise<unknown>;
  destroy(): void;
}

/**
 * The customer's S3 inbox, encrypted with its KMS key, written with Sightline's own credentials;
 * without a bucket, the local folder inbox under the data directory.
 */
export function openReportInbox(
  settings: AnalysisSettings,
  delivery: DeliverySettings,
): ReportInbox {
  if (!delivery.bucketName || !delivery.kmsKeyId) return createFolderInbox(settings.inboxDir);
  const inbox = createS3Inbox({
    bucket: delivery.bucketName,
    kmsKeyId: delivery.kmsKeyId,
    ...(settings.serviceCredentials ? { credentials: settings.serviceCredentials } : {}),
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
  });
  return { ...inbox, location: `s3://${delivery.bucketName}` };
}
