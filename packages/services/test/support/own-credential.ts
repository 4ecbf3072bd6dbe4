import type { FakeAws } from "@sightline/aws-fake";
import type { OwnCredential } from "@sightline/domain";

/**
 * A caller's own credential (section 2.5) of `accountId`: a session the fake AWS accepts until
 * `expiresAt`, claiming to last until `claimedExpiry`.
 */
export function ownCredential(
  fake: FakeAws,
  accountId: string,
  expiresAt: Date,
  claimedExpiry = new Date(Date.now() + 3_600_000),
): OwnCredential {
  const arn = `arn:aws:sts::${accountId}:assumed-role/PartnerAuditor/sightline`;
  const session = fake.issueSession({ arn, expiresAt });
  return {
    provider: "aws",
    type: "credential_sts",
    details: {
      accessKey: session.accessKeyId,
      secretKey: session.secretAccessKey,
      sessionToken: session.sessionToken,
      expiration: claimedExpiry.toISOString().replace(/\.\d{3}Z$/, "Z"),
      arn,
    },
  };
}
