import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openForExecution, sealForExecution } from "../src/credentials/envelope.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";

const executionId = "ondemand-P123456-000000000001-123456789012-2026-11-23_AB12";
const secret = JSON.stringify({ accessKey: "ASIAEXAMPLE", secretKey: "s3cr3t" });
const expires = new Date("2026-11-23T13:00:00Z");

describe("the credential envelope", () => {
  it("opens what it sealed, and stores neither the secret nor the data key in clear", async () => {
    const master = localMasterKey(randomBytes(32));
    const sealed = await sealForExecution(master, executionId, secret, expires);
    expect(sealed).toMatchObject({ keySource: "local", masterKeyId: "local", expiresAt: expires });
    const stored = Buffer.concat([sealed.wrappedKey, sealed.iv, sealed.ciphertext, sealed.authTag]);
    expect(stored.includes(Buffer.from("s3cr3t"))).toBe(false);
    expect(await openForExecution(master, executionId, sealed)).toBe(secret);
  });

  it("uses a fresh data key and IV for every seal", async () => {
    const master = localMasterKey(randomBytes(32));
    const a = await sealForExecution(master, executionId, secret, expires);
    const b = await sealForExecution(master, executionId, secret, expires);
    expect(a.wrappedKey.equals(b.wrappedKey)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
  });

  it("refuses another execution's ID, a flipped byte, and another master key", async () => {
    const master = localMasterKey(randomBytes(32));
    const sealed = await sealForExecution(master, executionId, secret, expires);
    const refused = { code: "CREDENTIAL_INVALID" };
    await expect(openForExecution(master, `${executionId}X`, sealed)).rejects.toMatchObject(
      refused,
    );
    for (const field of ["wrappedKey", "iv", "ciphertext", "authTag"] as const) {
      const altered = Buffer.from(sealed[field]);
      altered[0] = (altered[0] ?? 0) ^ 0x80;
      await expect(
        openForExecution(master, executionId, { ...sealed, [field]: altered }),
      ).rejects.toMatchObject(refused);
    }
    const other = localMasterKey(randomBytes(32));
    await expect(openForExecution(other, executionId, sealed)).rejects.toMatchObject(refused);
  });
});
