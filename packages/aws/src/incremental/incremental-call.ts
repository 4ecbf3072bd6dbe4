import { AppError } from "@sightline/domain";
import { awsCallError, describeFailure } from "../aws-call-error.ts";
import { classifyAwsError } from "../classify-aws-error.ts";

/** What a read answers when IAM says the entity does not exist (`NoSuchEntity`). */
export const GONE = Symbol("gone");

/**
 * Runs one read of the incremental collection. `NoSuchEntity` answers `GONE`: the entity was
 * deleted. A denial fails `INCREMENTAL_READ_DENIED` naming the action and the templates to
 * update (a role made from an older template lacks these actions), so the caller can fall back
 * to a full collection; throttling, outages and credentials fail as the full collection's do.
 */
export async function incrementalCall<T>(
  action: string,
  target: string,
  read: () => Promise<T>,
): Promise<T | typeof GONE> {
  try {
    return await read();
  } catch (error) {
    const failure = classifyAwsError(error);
    if (failure.code === "NoSuchEntity" || failure.code === "NoSuchEntityException") return GONE;
    if (failure.kind === "denied")
      throw incrementalReadDenied(action, target, describeFailure(failure), error);
    throw awsCallError(error, action, target);
  }
}

export function incrementalReadDenied(
  action: string,
  target: string,
  said: string,
  cause?: unknown,
) {
  return new AppError(
    "INCREMENTAL_READ_DENIED",
    `${action} on ${target} was denied (${said}): the auditor role predates the incremental collection. Update it from deploy/aws/auditor-role.yaml (or auditor-role-stackset.yaml, or deploy/terraform/auditor-role); until then each change is read by a full collection`,
    cause === undefined ? {} : { cause },
  );
}
