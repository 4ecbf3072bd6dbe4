import { randomBytes } from "node:crypto";
import type { SealedSecretColumns } from "@sightline/db";
import { AppError } from "@sightline/domain";
import { IV_BYTES, openAesGcm, sealAesGcm } from "../credentials/aes-gcm.ts";
import type { MasterKey } from "../credentials/master-key.ts";

/** What binds a sealed secret to its destination (the AAD, and KMS's encryption context). */
const bindingOf = (destinationId: string) => `alert-destination:${destinationId}`;

/**
 * Seals a webhook's secret as own credentials are sealed: AES-256-GCM under a fresh data key
 * wrapped by the master key (local or KMS), bound to the destination's ID.
 */
export async function sealDestinationSecret(
  masterKey: MasterKey,
  destinationId: string,
  secret: string,
): Promise<SealedSecretColumns> {
  const binding = bindingOf(destinationId);
  const dataKey = await masterKey.generateDataKey(binding);
  try {
    const iv = randomBytes(IV_BYTES);
    const sealed = sealAesGcm(dataKey.plaintext, iv, Buffer.from(secret), Buffer.from(binding));
    return {
      keySource: masterKey.source,
      masterKeyId: masterKey.keyId,
      wrappedKey: Buffer.from(dataKey.wrapped).toString("base64"),
      iv: iv.toString("base64"),
      ciphertext: sealed.ciphertext.toString("base64"),
      authTag: sealed.tag.toString("base64"),
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

/** The secret; INTERNAL when it was altered, moved to another destination or the key changed. */
export async function openDestinationSecret(
  masterKey: MasterKey,
  destinationId: string,
  sealed: SealedSecretColumns,
): Promise<string> {
  const binding = bindingOf(destinationId);
  let dataKey: Uint8Array | undefined;
  try {
    const from = (member: string) => Buffer.from(sealed[member] ?? "", "base64");
    dataKey = await masterKey.unwrapDataKey(from("wrappedKey"), binding);
    return openAesGcm(
      dataKey,
      from("iv"),
      { ciphertext: from("ciphertext"), tag: from("authTag") },
      Buffer.from(binding),
    ).toString("utf8");
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      "INTERNAL",
      `The secret of alert destination ${destinationId} does not decrypt: it was altered, or the master key changed; rotate it`,
    );
  } finally {
    dataKey?.fill(0);
  }
}
