import { createS3Inbox, type MultipartUploadHooks } from "@sightline/aws";
import {
  type Executor,
  forgetMultipartUpload,
  type OpenMultipartUpload,
  recordMultipartUpload,
} from "@sightline/db";
import { isAppError } from "@sightline/domain";
import type { Logger } from "@sightline/logging";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";

/** Maintenance aborts an upload recorded this long ago whose attempt holds no lease. */
export const ABANDONED_UPLOAD_AGE_MS = 15 * 60 * 1000;

/**
 * Records each multipart upload an attempt starts in an S3 inbox (before its first part) and
 * forgets it once completed or aborted, so that one a killed worker left open is aborted by the
 * next attempt or by maintenance.
 */
export function uploadRecorder(
  db: Executor,
  log: Logger,
  attempt: { executionId: string; attempt: number },
): MultipartUploadHooks {
  return {
    async started(upload) {
      await recordMultipartUpload(db, { ...upload, ...attempt });
    },
    async ended(uploadId) {
      await forgetMultipartUpload(db, uploadId).catch((error: unknown) => {
        // Maintenance aborts it again later: S3 answers NoSuchUpload, and the row goes.
        log.warn({ uploadId, err: error }, "a finished multipart upload stays recorded");
      });
    },
  };
}

/**
 * Aborts recorded uploads with Sightline's own credentials, as delivery writes them (one S3 no
 * longer knows counts as aborted) and forgets them; a failure is logged and the upload stays
 * recorded for the next maintenance.
 */
export async function abortOpenUploads(
  db: Executor,
  settings: Pick<AnalysisSettings, "serviceCredentials" | "awsClientOptions">,
  uploads: readonly OpenMultipartUpload[],
  log: Logger,
): Promise<{ aborted: number; failed: number }> {
  let aborted = 0;
  let failed = 0;
  for (const upload of uploads) {
    const inbox = createS3Inbox({
      bucket: upload.bucket,
      region: upload.region,
      // An abort encrypts nothing: the key is not sent.
      kmsKeyId: "",
      ...(upload.expectedBucketOwner ? { expectedBucketOwner: upload.expectedBucketOwner } : {}),
      ...(settings.serviceCredentials ? { credentials: settings.serviceCredentials } : {}),
      ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
    });
    try {
      await inbox.abortUpload(upload.key, upload.uploadId);
      await forgetMultipartUpload(db, upload.uploadId);
      aborted++;
    } catch (error) {
      failed++;
      const where = { bucket: upload.bucket, key: upload.key, uploadId: upload.uploadId };
      log.warn(
        {
          ...where,
          code: isAppError(error) ? error.code : "INTERNAL",
          message: error instanceof Error ? error.message : String(error),
        },
        "an incomplete multipart upload could not be aborted; maintenance tries again",
      );
    } finally {
      inbox.destroy();
    }
  }
  return { aborted, failed };
}
