import {
  type FakeAws,
  type FakeCredentialVending,
  startFakeAws,
  startFakeCredentialVending,
  type VendingAnswer,
} from "@sightline/aws-fake";
import { ACCOUNT_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, describe, expect, it } from "vitest";
import { collectAccount } from "../src/collect/collect-account.ts";
import { fetchVendedCredentials } from "../src/credentials/fetch-vended-credentials.ts";
import { failureOf } from "./fixtures/failure-of.ts";

const TOKEN = "vending-token-0123456789";
const REQUEST = {
  partnerId: "P123456",
  partnerCustomerId: "acme-prod-01",
  customerId: "P123456-000000000001",
  accountId: ACCOUNT_ID,
  provider: "aws",
  executionId: "ondemand-P123456-000000000001-210987654321-2024-06-01_AB12",
};
const VALID = {
  accessKeyId: "ASIAVENDED0000000001",
  secretAccessKey: "vended-secret-access-key-0123456789",
  sessionToken: "vended-session-token-0123456789",
  expiration: "2099-01-01T00:00:00Z",
};

describe("fetchVendedCredentials", () => {
  let vending: FakeCredentialVending | undefined;
  let fake: FakeAws | undefined;
  afterEach(async () => {
    await vending?.close();
    await fake?.close();
    vending = undefined;
    fake = undefined;
  });

  async function vend(answer: (token: string | undefined) => VendingAnswer) {
    vending = await startFakeCredentialVending((call) => answer(call.authorization));
    return fetchVendedCredentials({ url: vending.url, token: TOKEN, request: REQUEST });
  }

  it("POSTs the request as JSON with the bearer token, and collection signs with the vended key", async () => {
    fake = await startFakeAws(smallAccount);
    const session = fake.issueSession({
      arn: `arn:aws:sts::${ACCOUNT_ID}:assumed-role/VendedAuditor/oem`,
      expiresAt: new Date(Date.now() + 900_000),
    });
    const body = { ...session, expiration: session.expiration.toISOString() };
    const credentials = await vend((token) =>
      token === `Bearer ${TOKEN}` ? { status: 200, body } : { status: 401, body: {} },
    );
    expect(vending?.calls).toEqual([
      {
        method: "POST",
        authorization: `Bearer ${TOKEN}`,
        contentType: "application/json",
        body: REQUEST,
      },
    ]);
    expect(credentials.expiration).toEqual(session.expiration);
    await collectAccount({
      credentials,
      accountId: ACCOUNT_ID,
      partition: "aws",
      clientOptions: fake.clientOptions,
      credentialReportPollMs: 5,
    });
    expect(new Set(fake.calls.map((call) => call.accessKeyId))).toEqual(
      new Set([session.accessKeyId]),
    );
  });

  it("fails, not retryable, when the service refuses the token", async () => {
    const error = await failureOf(
      vend(() => ({ status: 403, body: { message: "unknown partner" } })),
    );
    expect(error.code).toBe("CREDENTIAL_VENDING_FAILED");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/refused Sightline's token \(HTTP 403: unknown partner\)$/);
  });

  it("fails retryable when the service is unavailable", async () => {
    const error = await failureOf(vend(() => ({ status: 503, body: "" })));
    expect(error.code).toBe("CREDENTIAL_VENDING_FAILED");
    expect(error.retryable).toBe(true);
  });

  it("names the malformed field without quoting any secret", async () => {
    const error = await failureOf(
      vend(() => ({ status: 200, body: { ...VALID, sessionToken: 42 } })),
    );
    expect(error.code).toBe("CREDENTIAL_VENDING_FAILED");
    expect(error.message).toContain("malformed credentials: sessionToken");
    expect(error.message).not.toContain(VALID.secretAccessKey);
  });

  it("refuses credentials that are already expired, retryable", async () => {
    const error = await failureOf(
      vend(() => ({ status: 200, body: { ...VALID, expiration: "2020-01-01T00:00:00Z" } })),
    );
    expect(error.code).toBe("CREDENTIAL_EXPIRED");
    expect(error.retryable).toBe(true);
  });

  it("refuses plain HTTP outside loopback", async () => {
    const error = await failureOf(
      fetchVendedCredentials({
        url: "http://vending.example.com/credentials",
        token: TOKEN,
        request: REQUEST,
      }),
    );
    expect(error.message).toBe(
      "The credential vending URL must be an https:// URL (plain http only on loopback)",
    );
  });
});
