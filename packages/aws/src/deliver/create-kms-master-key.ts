import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from "@aws-sdk/client-kms";
import { AppError } from "@sightline/domain";
import { awsCallError } from "../aws-call-error.ts";
import type { AwsCredentials } from "../aws-credentials.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import { type AwsClientOptions, sdkClientConfig } from "../client-options.ts";
import { regionOfKeyArn } from "../partitions.ts";

export interface KmsMasterKeyConfig {
  /** A key ARN, or a key ID or alias with `region`. */
  readonly keyId: string;
  readonly region?: string;
  /** Default: the SDK's standard chain. */
  readonly credentials?: AwsCredentials;
  readonly clientOptions?: AwsClientOptions;
}

export interface DataKey {
  /** 32 bytes for AES-256. Wipe it (`fill(0)`) once used. */
  readonly plaintext: Uint8Array;
  /** The data key wrapped by the master key: store this one. */
  readonly ciphertextBlob: Uint8Array;
}

/** The master key of an envelope: KMS wraps and unwraps per-execution data keys. */
export interface KmsMasterKey {
  readonly keyId: string;
  generateDataKey(encryptionContext: Readonly<Record<string, string>>): Promise<DataKey>;
  decryptDataKey(
    ciphertextBlob: Uint8Array,
    encryptionContext: Readonly<Record<string, string>>,
  ): Promise<Uint8Array>;
  destroy(): void;
}

export function createKmsMasterKey(config: KmsMasterKeyConfig): KmsMasterKey {
  const region = config.region ?? regionOfKeyArn(config.keyId);
  if (!region) throw new Error("createKmsMasterKey needs a region when keyId is not a key ARN");
  const client = new KMSClient(
    sdkClientConfig("kms", region, config.credentials, config.clientOptions),
  );
  const keyId = config.keyId;
  return {
    keyId,
    async generateDataKey(encryptionContext) {
      try {
        const answer = await client.send(
          new GenerateDataKeyCommand({
            KeyId: keyId,
            KeySpec: "AES_256",
            EncryptionContext: { ...encryptionContext },
          }),
        );
        if (!answer.Plaintext || !answer.CiphertextBlob) {
          throw new AppError("CLOUD_UNAVAILABLE", "KMS GenerateDataKey answered without a key");
        }
        return { plaintext: answer.Plaintext, ciphertextBlob: answer.CiphertextBlob };
      } catch (error) {
        throw masterKeyError(error, "kms:GenerateDataKey", keyId);
      }
    },
    async decryptDataKey(ciphertextBlob, encryptionContext) {
      try {
        const answer = await client.send(
          new DecryptCommand({
            KeyId: keyId,
            CiphertextBlob: ciphertextBlob,
            EncryptionContext: { ...encryptionContext },
          }),
        );
        if (!answer.Plaintext)
          throw new AppError("CLOUD_UNAVAILABLE", "KMS Decrypt answered without a key");
        return answer.Plaintext;
      } catch (error) {
        throw masterKeyError(error, "kms:Decrypt", keyId);
      }
    },
    destroy: () => client.destroy(),
  };
}

function masterKeyError(error: unknown, action: string, keyId: string): AppError {
  const { code, kind } = classifyAwsError(error);
  if (code === "InvalidCiphertextException" || code === "IncorrectKeyException") {
    return new AppError(
      "CREDENTIAL_INVALID",
      `The wrapped data key does not decrypt under ${keyId} with this encryption context: it was altered or belongs to another execution`,
      { cause: error },
    );
  }
  if (kind === "denied") {
    return new AppError(
      "ACCESS_DENIED",
      `Sightline may not use the KMS key ${keyId}: its key policy must allow Sightline's principal kms:GenerateDataKey and kms:Decrypt (${code})`,
      { cause: error },
    );
  }
  if (["NotFoundException", "DisabledException", "KMSInvalidStateException"].includes(code)) {
    return new AppError(
      "ACCESS_DENIED",
      `The KMS key ${keyId} is missing, disabled or pending deletion (${code})`,
      { cause: error },
    );
  }
  return awsCallError(error, action, `KMS key ${keyId}`);
}
