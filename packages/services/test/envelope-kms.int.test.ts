import { createKmsMasterKey } from "@sightline/aws";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { afterAll, describe, expect, it } from "vitest";
import { openForExecution, sealForExecution } from "../src/credentials/envelope.ts";
import { kmsMasterKey } from "../src/credentials/master-key.ts";

const fake = await startFakeAws(smallAccount.model);
const kms = createKmsMasterKey({
  keyId: smallAccount.KEY_ARN,
  credentials: fake.serviceCredentials,
  clientOptions: fake.clientOptions,
});
afterAll(async () => {
  kms.destroy();
  await fake.close();
});
const executionId = "ondemand-P123456-000000000001-210987654321-2026-11-23_KM55";

describe("the credential envelope under an AWS KMS master key", () => {
  it("wraps each data key with GenerateDataKey, the execution ID as encryption context", async () => {
    const master = kmsMasterKey(kms);
    const sealed = await sealForExecution(master, executionId, "the secret", new Date());
    expect(sealed).toMatchObject({ keySource: "kms", masterKeyId: smallAccount.KEY_ARN });
    expect(await openForExecution(master, executionId, sealed)).toBe("the secret");
    const operations = fake.calls.filter((c) => c.service === "kms").map((c) => c.operation);
    expect(operations).toEqual(["GenerateDataKey", "Decrypt"]);
    await expect(openForExecution(master, `${executionId}X`, sealed)).rejects.toMatchObject({
      code: "CREDENTIAL_INVALID",
    });
  });
});
