import type { Logger } from "@sightline/logging";
import { loadLocalMasterKeyFile } from "../credentials/local-master-key-file.ts";
import { kmsMasterKey, localMasterKey, type MasterKey } from "../credentials/master-key.ts";

/** The configured KMS key (`SIGHTLINE_KMS_KEY_ID`), or the local key of the data directory. */
export async function loadMasterKey(options: {
  kmsKeyId: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<MasterKey> {
  if (options.kmsKeyId) {
    const { createKmsMasterKey } = await import("@sightline/aws");
    return kmsMasterKey(createKmsMasterKey({ keyId: options.kmsKeyId }));
  }
  return localMasterKey(await loadLocalMasterKeyFile(options.dataDir, options.logger));
}
