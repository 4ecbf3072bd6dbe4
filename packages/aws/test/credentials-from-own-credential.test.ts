import type { OwnCredential } from "@sightline/domain";
import { AppError } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { credentialsFromOwnCredential } from "../src/credentials/credentials-from-own-credential.ts";

const NOW = new Date("2024-06-01T12:00:00Z");
const credential: OwnCredential = {
  provider: "aws",
  type: "credential_sts",
  details: {
    accessKey: "ASIAOWNCREDENTIAL001",
    secretKey: "own-secret-key-0123456789abcdef",
    sessionToken: "own-session-token-0123456789",
    expiration: "2024-06-01T12:15:00Z",
    arn: "arn:aws:sts::210987654321:assumed-role/PartnerAuditor/session-1",
  },
};

function failureOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a failure");
}

describe("credentialsFromOwnCredential", () => {
  it("turns the contract's details into signing credentials", () => {
    expect(
      credentialsFromOwnCredential(credential, { accountId: "210987654321", now: NOW }),
    ).toEqual({
      accessKeyId: "ASIAOWNCREDENTIAL001",
      secretAccessKey: "own-secret-key-0123456789abcdef",
      sessionToken: "own-session-token-0123456789",
      expiration: new Date("2024-06-01T12:15:00Z"),
      arn: "arn:aws:sts::210987654321:assumed-role/PartnerAuditor/session-1",
    });
  });

  it("refuses an expired credential, not retryable", () => {
    const error = failureOf(() =>
      credentialsFromOwnCredential(credential, {
        accountId: "210987654321",
        now: new Date("2024-06-01T12:20:00Z"),
      }),
    );
    expect(error.code).toBe("CREDENTIAL_EXPIRED");
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "The credentials supplied with the trigger expired at 2024-06-01T12:15:00.000Z: supply credentials valid for at least another minute",
    );
  });

  it("refuses one that expires within the minute", () => {
    const now = new Date("2024-06-01T12:14:30Z");
    const error = failureOf(() =>
      credentialsFromOwnCredential(credential, { accountId: "210987654321", now }),
    );
    expect(error.code).toBe("CREDENTIAL_EXPIRED");
  });

  it("refuses a session of another account or partition", () => {
    const gov = { ...credential, provider: "aws-us-gov" as const };
    for (const [input, accountId] of [
      [credential, "111122223333"],
      [gov, "210987654321"],
    ] as const) {
      const error = failureOf(() => credentialsFromOwnCredential(input, { accountId, now: NOW }));
      expect(error.code).toBe("CREDENTIAL_INVALID");
      expect(error.message).toContain("details.arn must be an assumed-role session of account");
    }
  });

  it("names malformed details without quoting them", () => {
    const broken = {
      ...credential,
      details: { ...credential.details, secretKey: "", expiration: "tomorrow" },
    };
    const error = failureOf(() =>
      credentialsFromOwnCredential(broken, { accountId: "210987654321", now: NOW }),
    );
    expect(error.message).toBe(
      "The supplied own credential is unusable: details.secretKey, details.expiration are malformed",
    );
  });
});
