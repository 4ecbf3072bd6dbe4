import { getExecutionCredential, rawQuery } from "@sightline/db";
import { TriggeredPartnerAnalysis } from "@sightline/domain";
import { openForExecution } from "@sightline/services";
import { describe, expect, it } from "vitest";
import { ownCredential, partnerAccountPath, partnerTrigger } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const ACCOUNT = "123456789012";
type Credential = ReturnType<typeof ownCredential>;

/** A partner customer without monitored accounts: an own credential needs none. */
async function trigger(credential: unknown, extra: Record<string, unknown> = {}) {
  const pc = await h.newPartnerCustomer(await h.newPartner());
  const path = partnerAccountPath(pc, ACCOUNT);
  const res = await h.call("POST", `${path}/analysis`, {
    key: pc.key,
    body: partnerTrigger(pc, ACCOUNT, {
      auditorAuthMethod: "credential",
      auditorAuthCredential: credential,
      ...extra,
    }),
  });
  const executions = await h.call("GET", `${path}/executions`, { key: pc.key });
  return { pc, res, executions: executions.json };
}

const withDetails = (change: Partial<Credential["details"]>) => {
  const credential = ownCredential(ACCOUNT);
  return { ...credential, details: { ...credential.details, ...change } };
};
const without = (member: keyof Credential["details"]) => {
  const credential = ownCredential(ACCOUNT);
  const { [member]: _, ...details } = credential.details;
  return { ...credential, details };
};
const session = (arn: string) => withDetails({ arn });

describe("own credential (endpoint 14, auditorAuthMethod credential)", () => {
  it("needs only a known partner customer, and stores the credential only encrypted", async () => {
    const credential = ownCredential(ACCOUNT);
    const { pc, res } = await trigger(credential);
    expect(res.status).toBe(202);
    const { executionId } = TriggeredPartnerAnalysis.parse(res.json);
    expect(res.json.customerId).toBe(pc.customerId);

    const rows = await h.deps.db.execute(
      rawQuery("select * from execution_credentials where execution_id = $1", [executionId]),
    );
    expect(rows).toHaveLength(1);
    // Every column's bytes: the wrapped key, IV, ciphertext, tag, and the plain columns.
    const stored = Buffer.concat(
      Object.values(rows[0] ?? {}).map((v) => (Buffer.isBuffer(v) ? v : Buffer.from(String(v)))),
    );
    const { secretKey, sessionToken, accessKey } = credential.details;
    for (const secret of [secretKey, sessionToken, accessKey]) {
      expect(stored.includes(Buffer.from(secret))).toBe(false);
      expect(res.text).not.toContain(secret);
    }
    // The same bytes open, under this execution's ID, to exactly what was sent.
    const sealed = await getExecutionCredential(h.deps.db, executionId);
    if (!sealed) throw new Error("no stored credential");
    expect(sealed.expiresAt.toISOString()).toBe(credential.details.expiration);
    expect(JSON.parse(await openForExecution(h.masterKey, executionId, sealed))).toEqual(
      credential,
    );
    const record = await h.call("GET", `/executions/${executionId}`, { key: pc.key });
    expect(record.text).not.toContain(credential.details.sessionToken);
  });

  it("accepts an aws-us-gov session of the account", async () => {
    const credential = {
      ...ownCredential(ACCOUNT),
      provider: "aws-us-gov",
    };
    credential.details.arn = credential.details.arn.replace("arn:aws:", "arn:aws-us-gov:");
    expect((await trigger(credential)).res.status).toBe(202);
  });

  it("answers 404 for an unknown partner customer", async () => {
    const partner = await h.newPartner();
    const unknown = { ...partner, partnerCustomerId: "unknown-tenant", customerId: "" };
    const res = await h.call("POST", `${partnerAccountPath(unknown, ACCOUNT)}/analysis`, {
      key: partner.key,
      body: partnerTrigger(unknown, ACCOUNT, {
        auditorAuthMethod: "credential",
        auditorAuthCredential: ownCredential(ACCOUNT),
      }),
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toContain("Customer unknown-tenant of partner");
  });

  const field = (name: string) => `auditorAuthCredential.${name}`;
  const otherAccount = `arn:aws:sts::999999999999:assumed-role/SightlineAuditor/s`;
  it.each([
    [
      "an unsupported provider",
      { ...ownCredential(ACCOUNT), provider: "aws-iso" },
      field("provider"),
    ],
    ["an unknown type", { ...ownCredential(ACCOUNT), type: "credential_x" }, field("type")],
    ["no accessKey", without("accessKey"), field("details.accessKey")],
    ["no secretKey", without("secretKey"), field("details.secretKey")],
    ["no sessionToken", without("sessionToken"), field("details.sessionToken")],
    ["no expiration", without("expiration"), field("details.expiration")],
    ["no arn", without("arn"), field("details.arn")],
    ["no details", { provider: "aws", type: "credential_sts" }, field("details")],
    [
      "an expiration 4 minutes ahead",
      withDetails({ expiration: new Date(Date.now() + 4 * 60_000).toISOString() }),
      field("details.expiration"),
    ],
    [
      "an expiration that is not UTC",
      withDetails({ expiration: "2099-01-01T12:00:00+02:00" }),
      field("details.expiration"),
    ],
    ["a session of another account", session(otherAccount), field("details.arn")],
    [
      "a session of another partition",
      session(`arn:aws-us-gov:sts::${ACCOUNT}:assumed-role/SightlineAuditor/s`),
      field("details.arn"),
    ],
    [
      "a role, not a session",
      session(`arn:aws:iam::${ACCOUNT}:role/SightlineAuditor`),
      field("details.arn"),
    ],
    ["a user's ARN", session(`arn:aws:iam::${ACCOUNT}:user/alice`), field("details.arn")],
    ["no ARN at all", session("SightlineAuditor"), field("details.arn")],
  ])("refuses %s with 400 naming %s, and queues nothing", async (_name, credential, path) => {
    const { res, executions } = await trigger(credential);
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(executions).toEqual([]);
  });

  it.each([
    [
      "credential without auditorAuthCredential",
      { auditorAuthCredential: undefined },
      "auditorAuthCredential",
    ],
    [
      "a credential without auditorAuthMethod",
      { auditorAuthMethod: undefined },
      "auditorAuthMethod",
    ],
    ["an unknown method", { auditorAuthMethod: "config" }, "auditorAuthMethod"],
  ])("refuses %s with 400 naming %s", async (_name, extra, path) => {
    const { res, executions } = await trigger(ownCredential(ACCOUNT), extra);
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(executions).toEqual([]);
  });
});
