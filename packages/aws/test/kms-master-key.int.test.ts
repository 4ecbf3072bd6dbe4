import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { KEY_ARN, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKmsMasterKey } from "../src/deliver/create-kms-master-key.ts";
import { failureOf } from "./fixtures/failure-of.ts";

describe("createKmsMasterKey", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
  });
  afterEach(async () => {
    await fake.close();
  });

  const masterKey = (keyId = KEY_ARN) =>
    createKmsMasterKey({
      keyId,
      credentials: fake.serviceCredentials,
      clientOptions: fake.clientOptions,
    });
  const context = { executionId: "ondemand-P123456-000000000001-210987654321-2024-06-01_AB12" };

  it("generates a 256-bit data key and unwraps it with the same encryption context", async () => {
    const key = masterKey();
    const { plaintext, ciphertextBlob } = await key.generateDataKey(context);
    expect(plaintext).toHaveLength(32);
    expect(Buffer.from(ciphertextBlob).includes(Buffer.from(plaintext))).toBe(false);
    expect(await key.decryptDataKey(ciphertextBlob, context)).toEqual(plaintext);
    expect(fake.calls.map((call) => [call.operation, call.resource, call.region])).toEqual([
      ["GenerateDataKey", KEY_ARN, "us-east-1"],
      ["Decrypt", KEY_ARN, "us-east-1"],
    ]);
  });

  it("refuses another execution's context or a flipped byte", async () => {
    const key = masterKey();
    const { ciphertextBlob } = await key.generateDataKey(context);
    const otherContext = await failureOf(
      key.decryptDataKey(ciphertextBlob, { executionId: "other" }),
    );
    expect(otherContext.code).toBe("CREDENTIAL_INVALID");
    const flipped = Uint8Array.from(ciphertextBlob);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    const tampered = await failureOf(key.decryptDataKey(flipped, context));
    expect(tampered.code).toBe("CREDENTIAL_INVALID");
  });

  it("fails ACCESS_DENIED when the key policy refuses Sightline", async () => {
    fake.inject({ operation: "GenerateDataKey", kind: "access-denied" });
    const error = await failureOf(masterKey().generateDataKey(context));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.message).toMatch(/^Sightline may not use the KMS key arn:aws:kms:/);
  });

  it("fails ACCESS_DENIED for a key that does not exist", async () => {
    const missing = "arn:aws:kms:us-east-1:210987654321:key/00000000-0000-0000-0000-000000000000";
    const error = await failureOf(masterKey(missing).generateDataKey(context));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.message).toContain("is missing, disabled or pending deletion");
  });
});
