import { randomBytes } from "node:crypto";
import type { KmsMasterKey } from "@sightline/aws";
import { IV_BYTES, KEY_BYTES, openAesGcm, sealAesGcm, TAG_BYTES } from "./aes-gcm.ts";

/** A fresh 256-bit data key, and the same key wrapped by the master key (what is stored). */
export interface DataKey {
  plaintext: Uint8Array;
  wrapped: Uint8Array;
}

/**
 * The key that wraps each execution's data key. The execution ID binds a wrapped key to its
 * execution: unwrapping it under another ID fails.
 */
export interface MasterKey {
  readonly source: "local" | "kms";
  /** Which key: a name for the local key, the KMS key ARN or ID. */
  readonly keyId: string;
  generateDataKey(executionId: string): Promise<DataKey>;
  unwrapDataKey(wrapped: Uint8Array, executionId: string): Promise<Uint8Array>;
}

/**
 * A 256-bit key held by the service (the default): a data key is wrapped with AES-256-GCM under
 * it, the execution ID as additional data; stored as IV ‖ tag ‖ wrapped key.
 */
export function localMasterKey(key: Uint8Array, keyId = "local"): MasterKey {
  if (key.length !== KEY_BYTES) throw new Error(`a local master key has ${KEY_BYTES} bytes`);
  return {
    source: "local",
    keyId,
    async generateDataKey(executionId) {
      const plaintext = randomBytes(KEY_BYTES);
      const iv = randomBytes(IV_BYTES);
      const { ciphertext, tag } = sealAesGcm(key, iv, plaintext, Buffer.from(executionId));
      return { plaintext, wrapped: Buffer.concat([iv, tag, ciphertext]) };
    },
    async unwrapDataKey(wrapped, executionId) {
      const iv = wrapped.subarray(0, IV_BYTES);
      const tag = wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const ciphertext = wrapped.subarray(IV_BYTES + TAG_BYTES);
      return openAesGcm(key, iv, { ciphertext, tag }, Buffer.from(executionId));
    },
  };
}

/** An AWS KMS key (`SIGHTLINE_KMS_KEY_ID`): the execution ID is the encryption context. */
export function kmsMasterKey(kms: KmsMasterKey): MasterKey {
  return {
    source: "kms",
    keyId: kms.keyId,
    async generateDataKey(executionId) {
      const key = await kms.generateDataKey({ executionId });
      return { plaintext: key.plaintext, wrapped: key.ciphertextBlob };
    },
    unwrapDataKey: (wrapped, executionId) => kms.decryptDataKey(wrapped, { executionId }),
  };
}
