import { AppError, isAppError } from "@sightline/domain";
import { describeFailure } from "../aws-call-error.ts";
import { classifyAwsError } from "../classify-aws-error.ts";

/** Where an inbox call went. */
export interface InboxPlace {
  readonly bucket: string;
  readonly key: string;
  readonly kmsKeyId: string;
  /** The account the bucket must belong to (`ExpectedBucketOwner`), when configured. */
  readonly expectedBucketOwner?: string;
}

/** What Sightline was doing: each needs its own permissions. */
export type InboxAccess = "write" | "copy" | "read" | "delete" | "abort";

const PERMISSIONS: Record<InboxAccess, (place: InboxPlace) => string> = {
  write: ({ kmsKeyId }) =>
    `the bucket policy must allow Sightline's principal s3:PutObject with SSE-KMS key ${kmsKeyId}, and the key policy kms:GenerateDataKey (see deploy/README.md)`,
  copy: ({ kmsKeyId }) =>
    `the bucket policy must allow Sightline's principal s3:GetObject on the source and s3:PutObject with SSE-KMS key ${kmsKeyId}, and the key policy kms:Decrypt and kms:GenerateDataKey (see deploy/README.md)`,
  read: () =>
    "Sightline needs s3:GetObject on that key (the inbox's ownership proof), and kms:Decrypt if it is encrypted under a KMS key; without s3:ListBucket, S3 also answers AccessDenied for a key that does not exist",
  delete: () => "the bucket policy must allow Sightline's principal s3:DeleteObject on it",
  abort: () =>
    "the bucket policy must allow Sightline's principal s3:AbortMultipartUpload on it (see deploy/README.md)",
};

/** The typed failure of a call to a partner's or customer's S3 inbox. */
export function inboxError(
  error: unknown,
  place: InboxPlace,
  access: InboxAccess = "write",
): AppError {
  if (isAppError(error)) return error;
  const failure = classifyAwsError(error);
  const said = describeFailure(failure);
  const options = { cause: error };
  const where = `s3://${place.bucket}/${place.key}`;
  if (failure.code === "BadDigest") {
    return new AppError(
      "INBOX_INTEGRITY",
      `S3 refused ${where}: the bytes it received do not match the SHA-256 checksum Sightline sent (${said}); the delivery will be retried`,
      options,
    );
  }
  if (failure.code.startsWith("KMS.")) {
    const use = access === "read" ? "decrypt" : "encrypt";
    return new AppError(
      "INBOX_DENIED",
      `S3 could not ${use} ${where} with the KMS key ${place.kmsKeyId}: check that the key exists, is enabled, is in the bucket's region and its key policy allows Sightline kms:GenerateDataKey and kms:Decrypt (${said})`,
      options,
    );
  }
  switch (failure.kind) {
    case "denied":
      return new AppError(
        "INBOX_DENIED",
        `Sightline may not ${access} ${where}: ${PERMISSIONS[access](place)} (${said})${ownerNote(place)}`,
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
        `Sightline's own AWS credentials expired during the ${access} of ${where}`,
        { ...options, retryable: true },
      );
    case "invalid-credentials":
      return new AppError(
        "CREDENTIAL_INVALID",
        `S3 rejected Sightline's own AWS credentials on the ${access} of ${where} (${said})`,
        options,
      );
    case "throttled":
      return new AppError("THROTTLED", `S3 kept throttling the ${access} of ${where}`, options);
    case "unavailable":
      return new AppError("CLOUD_UNAVAILABLE", `S3 did not accept ${where} (${said})`, options);
    default:
      return new AppError("CLOUD_UNAVAILABLE", `S3 refused ${where} (${said})`, {
        ...options,
        retryable: false,
      });
  }
}

/** S3 answers a wrong `ExpectedBucketOwner` with a plain AccessDenied, so both are possible. */
function ownerNote({ expectedBucketOwner }: InboxPlace): string {
  if (!expectedBucketOwner) return "";
  return `; or the bucket does not belong to the expected bucket owner, account ${expectedBucketOwner} (S3 answers AccessDenied to a request whose ExpectedBucketOwner is not the bucket's account)`;
}
