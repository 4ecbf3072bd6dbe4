import { AppError, OwnCredential } from "@sightline/domain";
import { parseArn } from "@sightline/engine/arn";
import type { TemporaryCredentials } from "../aws-credentials.ts";
import { requireValidity } from "./require-validity.ts";

export interface OwnCredentials extends TemporaryCredentials {
  /** The assumed-role session the caller says the credentials belong to. */
  readonly arn: string;
}

/**
 * The `credential` auditor method: the caller's STS credentials (contract section 2.5), once
 * decrypted. Checked again here, since they were stored and time has passed: malformed details,
 * a session of another account or partition, or expiry within a minute are refused. Messages
 * name the field, never its value.
 */
export function credentialsFromOwnCredential(
  credential: OwnCredential,
  expected: { readonly accountId: string; readonly now?: Date },
): OwnCredentials {
  const parsed = OwnCredential.safeParse(credential);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join(".")))];
    const verb = fields.length > 1 ? "are" : "is";
    throw invalid(`${fields.join(", ")} ${verb} malformed`);
  }
  const { provider, details } = parsed.data;
  const arn = parseArn(details.arn);
  const isSession = arn?.service === "sts" && arn.resource.startsWith("assumed-role/");
  if (!isSession || arn.partition !== provider || arn.accountId !== expected.accountId) {
    throw invalid(
      `details.arn must be an assumed-role session of account ${expected.accountId} in partition ${provider}`,
    );
  }
  const expiration = new Date(details.expiration);
  requireValidity(expiration, expected.now, "supplied with the trigger");
  return {
    accessKeyId: details.accessKey,
    secretAccessKey: details.secretKey,
    sessionToken: details.sessionToken,
    expiration,
    arn: details.arn,
  };
}

function invalid(reason: string): AppError {
  return new AppError("CREDENTIAL_INVALID", `The supplied own credential is unusable: ${reason}`);
}
