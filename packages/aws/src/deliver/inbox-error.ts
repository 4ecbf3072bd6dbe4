import { AppError, isAppError } from "@sightline/domain";
import { describeFailure } from "../aws-call-error.ts";
import { classifyAwsError } from "../classify-aws-error.ts";

/** The typed failure of a write to a partner's or customer's S3 inbox. */
export function inboxError(
  error: unknown,
  place: { readonly bucket: string; readonly key: string; readonly kmsKeyId: string },
): AppError {
  if (isAppError(error)) return error;
  const failure = classifyAwsError(error);
  const said = describeFailure(failure);
  const options = { cause: error };
  const where = `s3://${place.bucket}/${place.key}`;
  if (failure.code.startsWith("KMS.")) {
    return new AppError(
      "INBOX_DENIED",
      `S3 could not encrypt ${where} with the KMS key ${place.kmsKeyId}: check that the key exists, is enabled, is in the bucket's region and its key policy allows Sightline kms:GenerateDataKey (${said})`,
      options,
    );
  }
  switch (failure.kind) {
    case "denied":
      return new AppError(
        "INBOX_DENIED",
        `Sightline may not write ${where}: the bucket policy must allow Sightline's principal s3:PutObject with SSE-KMS key ${place.kmsKeyId}, and the key policy kms:GenerateDataKey (see deploy/README.md) (${said})`,
        options,
      );
    case "not-found":
      return new AppError(
        "INBOX_NOT_FOUND",
        `The inbox bucket ${place.bucket} does not exist: check the configured bucket name (${said})`,
        options,
      );
    case "expired":
      return new AppError(
        "CREDENTIAL_EXPIRED",
        `Sightline's own AWS credentials expired while writing ${where}`,
        {
          ...options,
          retryable: true,
        },
      );
    case "invalid-credentials":
      return new AppError(
        "CREDENTIAL_INVALID",
        `S3 rejected Sightline's own AWS credentials writing ${where} (${said})`,
        options,
      );
    case "throttled":
      return new AppError("THROTTLED", `S3 kept throttling the write of ${where}`, options);
    case "unavailable":
      return new AppError("CLOUD_UNAVAILABLE", `S3 did not accept ${where} (${said})`, options);
    default:
      return new AppError("CLOUD_UNAVAILABLE", `S3 refused ${where} (${said})`, {
        ...options,
        retryable: false,
      });
  }
}
