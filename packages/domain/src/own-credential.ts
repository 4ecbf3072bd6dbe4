import { isPartition, parseArn } from "@sightline/engine/arn";
import { z } from "zod";
import { opaqueText } from "./identifiers.ts";

/** STS temporary credentials a partner supplies with a trigger (section 2.5). */
export const StsCredentialDetails = z
  .strictObject({
    accessKey: z
      .string()
      .regex(/^[A-Z0-9]{16,128}$/, "must be an access key ID (ASIA…)")
      .describe("Access key ID of the temporary credentials"),
    secretKey: opaqueText(512).describe("Secret access key"),
    sessionToken: opaqueText(8192).describe("Session token"),
    expiration: z.iso
      .datetime({
        offset: false,
        message: "must be an ISO 8601 UTC timestamp, e.g. 2026-01-01T12:00:00Z",
      })
      .describe("Expiry of the credentials, ISO 8601 UTC"),
    arn: opaqueText(2048).describe("ARN of the assumed-role session"),
  })
  .meta({ id: "StsCredentialDetails" });
export type StsCredentialDetails = z.infer<typeof StsCredentialDetails>;

export const OwnCredential = z
  .strictObject({
    provider: z.enum(["aws", "aws-us-gov"]),
    type: z.literal("credential_sts"),
    details: StsCredentialDetails,
  })
  .meta({ id: "AuditorAuthCredential" });
export type OwnCredential = z.infer<typeof OwnCredential>;

/** A session must outlive the trigger long enough to collect the account. */
export const MIN_CREDENTIAL_LIFETIME_MS = 5 * 60_000;

/**
 * Checks of an own credential that need the account and the clock: the session belongs to the
 * account and partition, and lives at least five more minutes. Returns `{ path, message }`s.
 */
export function checkOwnCredential(
  credential: OwnCredential,
  accountId: string,
  now: Date,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const arn = parseArn(credential.details.arn);
  const isSession =
    arn !== undefined &&
    isPartition(arn.partition) &&
    arn.service === "sts" &&
    /^assumed-role\/[\w+=,.@-]+\/[\w+=,.@-]+$/.test(arn.resource);
  if (!isSession)
    problems.push({
      path: "auditorAuthCredential.details.arn",
      message:
        "must be an assumed-role session ARN, e.g. arn:aws:sts::123456789012:assumed-role/Role/session",
    });
  else if (arn.partition !== credential.provider)
    problems.push({
      path: "auditorAuthCredential.details.arn",
      message: `must be in partition '${credential.provider}' of the credential's provider`,
    });
  else if (arn.accountId !== accountId)
    problems.push({
      path: "auditorAuthCredential.details.arn",
      message: `must be a session in account ${accountId}`,
    });
  const expires = Date.parse(credential.details.expiration);
  if (expires < now.getTime() + MIN_CREDENTIAL_LIFETIME_MS)
    problems.push({
      path: "auditorAuthCredential.details.expiration",
      message: "must be at least 5 minutes in the future",
    });
  return problems;
}
