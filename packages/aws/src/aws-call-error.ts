import { AppError, isAppError } from "@sightline/domain";
import { type AwsFailure, classifyAwsError } from "./classify-aws-error.ts";

/**
 * The typed failure of an AWS call made with the auditor's credentials. `action` is the IAM
 * action (`iam:GetAccountAuthorizationDetails`), `target` what it was called on.
 */
export function awsCallError(error: unknown, action: string, target: string): AppError {
  if (isAppError(error)) return error;
  const failure = classifyAwsError(error);
  const options = { cause: error };
  const said = describeFailure(failure);
  switch (failure.kind) {
    case "denied":
      return new AppError(
        "ACCESS_DENIED",
        `${action} on ${target} was denied (${said}): grant it to the auditor role, as in deploy/aws/auditor-role.yaml`,
        options,
      );
    case "expired":
      return new AppError(
        "CREDENTIAL_EXPIRED",
        `The auditor credentials expired during ${action}: run the analysis again with fresh credentials`,
        options,
      );
    case "invalid-credentials":
      return new AppError(
        "CREDENTIAL_INVALID",
        `AWS rejected the auditor credentials on ${action} (${said}): they are unknown, revoked or of another partition`,
        options,
      );
    case "throttled":
      return new AppError(
        "THROTTLED",
        `AWS kept throttling ${action} after every retry (${failure.code}); the analysis can run again later`,
        options,
      );
    case "unavailable":
      return new AppError(
        "CLOUD_UNAVAILABLE",
        `${action} failed because AWS did not answer (${said}); the analysis can run again later`,
        options,
      );
    default:
      return new AppError("CLOUD_UNAVAILABLE", `${action} on ${target} failed (${said})`, {
        ...options,
        retryable: false,
      });
  }
}

/** `Code: message`, as AWS said it. */
export function describeFailure(failure: AwsFailure): string {
  return failure.message ? `${failure.code}: ${failure.message}` : failure.code;
}
