import { randomBytes } from "node:crypto";
import type { EncryptedCredential } from "@sightline/db";
import { AppError } from "@sightline/domain";
import { IV_BYTES, openAesGcm, sealAesGcm } from "./aes-gcm.ts";
import type { MasterKey } from "./master-key.ts";

/**
 * Encrypts a secret for one execution (section 5): AES-256-GCM under a fresh data key, the
 * execution ID as additional authenticated data; the data key is kept only wrapped.
 */
export async function sealForExecution(
  masterKey: MasterKey,
  executionId: string,
  secret: string,
  expiresAt: Date,
): Promise<EncryptedCredential> {
  const dataKey = await masterKey.generateDataKey(executionId);
  try {
    const iv = randomBytes(IV_BYTES);
    const sealed = sealAesGcm(
      dataKey.plaintext,
      iv,
      Buffer.from(secret, "utf8"),
      Buffer.from(executionId),
    );
    return {
      keySource: masterKey.source,
      masterKeyId: masterKey.keyId,
      wrappedKey: Buffer.from(dataKey.wrapped),
      iv,
      ciphertext: sealed.ciphertext,
      authTag: sealed.tag,
      expiresAt,
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

/** The secret, or CREDENTIAL_INVALID when anything was altered or belongs to another execution. */
export async function openForExecution(
  masterKey: MasterKey,
  executionId: string,
  sealed: EncryptedCredential,
): Promise<string> {
  let dataKey: Uint8Array | undefined;
  try {
    dataKey = await masterKey.unwrapDataKey(sealed.wrappedKey, executionId);
    const plaintext = openAesGcm(
      dataKey,
      sealed.iv,
      { ciphertext: sealed.ciphertext, tag: sealed.authTag },
      Buffer.from(executionId),
    );
    return plaintext.toString("utf8");
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      "CREDENTIAL_INVALID",
      `The stored credential of execution ${executionId} does not decrypt: it was altered, or the master key changed`,
    );
  } finally {
    dataKey?.fill(0);
  }
}
