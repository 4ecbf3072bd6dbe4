import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { FakeAwsError } from "../fake-errors.ts";
import type { FakeKey } from "../fake-model.ts";
import { type FakeState, partitionOf } from "../fake-state.ts";

export function keyRegion(key: FakeKey): string {
  return key.region ?? "us-east-1";
}

export function keyArn(state: FakeState, key: FakeKey): string {
  return `arn:${partitionOf(state)}:kms:${keyRegion(key)}:${state.model.accountId}:key/${key.keyId}`;
}

/** Finds a key of the region by ID, key ARN, alias name or alias ARN, as KMS does. */
export function findKey(state: FakeState, region: string, reference: unknown): FakeKey {
  const ref = String(reference ?? "");
  const key = (state.model.keys ?? []).find((candidate) => {
    if (keyRegion(candidate) !== region) return false;
    const aliases = candidate.aliases ?? [];
    return (
      candidate.keyId === ref ||
      keyArn(state, candidate) === ref ||
      aliases.includes(ref) ||
      aliases.some((alias) => ref.endsWith(`:${alias}`))
    );
  });
  if (!key) throw new FakeAwsError("NotFoundException", `Key '${ref}' does not exist`, 400);
  return key;
}

/** KMS's default key policy: the account's IAM policies decide. */
export function defaultKeyPolicy(state: FakeState): object {
  return {
    Version: "2012-10-17",
    Id: "key-default-1",
    Statement: [
      {
        Sid: "Enable IAM User Permissions",
        Effect: "Allow",
        Principal: { AWS: `arn:${partitionOf(state)}:iam::${state.model.accountId}:root` },
        Action: "kms:*",
        Resource: "*",
      },
    ],
  };
}

/**
 * Wraps a data key as `<arn length><key ARN><iv><tag><ciphertext>` under the fake's secret,
 * authenticating the key ARN and the encryption context, so a changed byte or context fails.
 */
export function wrapDataKey(
  state: FakeState,
  arn: string,
  context: unknown,
  plaintext: Buffer,
): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", state.kmsSecret, iv);
  cipher.setAAD(additionalData(arn, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const arnBytes = Buffer.from(arn);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(arnBytes.length);
  return Buffer.concat([length, arnBytes, iv, cipher.getAuthTag(), ciphertext]);
}

export function unwrapDataKey(
  state: FakeState,
  blob: Buffer,
  context: unknown,
): { arn: string; plaintext: Buffer } {
  const invalid = new FakeAwsError("InvalidCiphertextException", "", 400);
  if (blob.length < 2) throw invalid;
  const arnLength = blob.readUInt16BE(0);
  const arn = blob.subarray(2, 2 + arnLength).toString();
  const iv = blob.subarray(2 + arnLength, 14 + arnLength);
  const tag = blob.subarray(14 + arnLength, 30 + arnLength);
  try {
    const decipher = createDecipheriv("aes-256-gcm", state.kmsSecret, iv);
    decipher.setAAD(additionalData(arn, context));
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([
      decipher.update(blob.subarray(30 + arnLength)),
      decipher.final(),
    ]);
    return { arn, plaintext };
  } catch {
    throw invalid;
  }
}

function additionalData(arn: string, context: unknown): Buffer {
  const entries = Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Buffer.from(`${arn}\n${JSON.stringify(entries)}`);
}
