import type { AwsPartition } from "@sightline/domain";
import { awsCallError, describeFailure } from "../aws-call-error.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import type { CollectionWarning, CollectionWarningKind } from "./collection-types.ts";
import type { AccountClients } from "./create-account-clients.ts";

/** What every step of one collection shares. */
export interface CollectContext {
  readonly clients: AccountClients;
  readonly accountId: string;
  readonly partition: AwsPartition;
  readonly concurrency: number;
  readonly warnings: CollectionWarning[];
}

export interface ReadAttempt {
  /** The IAM action, e.g. `s3:GetBucketPolicy`. */
  readonly action: string;
  /** The resource ARN, or what was read (`KMS keys in eu-west-1`). */
  readonly target: string;
  readonly kind: CollectionWarningKind;
  /** Error codes that mean "there is none" (`NoSuchBucketPolicy`): no warning. */
  readonly absentCodes?: readonly string[];
  /** What the analysis lacks because of it, as a sentence: "The bucket policy was not analysed". */
  readonly consequence?: string;
}

/**
 * Runs a read whose failure costs only what it reads. Undefined when the read was refused
 * (then recorded as a warning) or found nothing (`absentCodes`).
 */
export async function readOrWarn<T>(
  ctx: CollectContext,
  attempt: ReadAttempt,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    return warnOrThrow(ctx, attempt, error);
  }
}

/**
 * When AWS refused a read (denied, not found, rejected), records a warning. Throttling, outages
 * and expired credentials still fail the run: they concern every read, and a retry of the job
 * may succeed.
 */
function warnOrThrow(ctx: CollectContext, attempt: ReadAttempt, error: unknown): undefined {
  const failure = classifyAwsError(error);
  if (attempt.absentCodes?.includes(failure.code)) return undefined;
  const refused = ["denied", "not-found", "rejected"].includes(failure.kind);
  if (!refused || failure.status === undefined) {
    throw awsCallError(error, attempt.action, attempt.target);
  }
  const consequence = attempt.consequence ?? "It is missing from the analysis";
  ctx.warnings.push({
    kind: attempt.kind,
    action: attempt.action,
    ...(attempt.target.startsWith("arn:") ? { resourceArn: attempt.target } : {}),
    message: `${consequence}: ${attempt.action} on ${attempt.target} failed (${describeFailure(failure)})`,
  });
  return undefined;
}
