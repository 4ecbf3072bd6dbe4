import { createCipheriv, createDecipheriv } from "node:crypto";

export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** AES-256-GCM with additional authenticated data: the ciphertext and its 16-byte tag. */
export function sealAesGcm(
  key: Uint8Array,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): { ciphertext: Buffer; tag: Buffer } {
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { ciphertext, tag: cipher.getAuthTag() };
}

/** The plaintext, or a throw when the key, IV, AAD, ciphertext or tag was altered. */
export function openAesGcm(
  key: Uint8Array,
  iv: Uint8Array,
  sealed: { ciphertext: Uint8Array; tag: Uint8Array },
  aad: Uint8Array,
): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
}
