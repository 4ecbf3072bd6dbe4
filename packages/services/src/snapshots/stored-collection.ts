import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { CollectedAccount } from "@sightline/aws";
import type { CollectedSubscription } from "@sightline/azure";
import { type Executor, insertSnapshot, type StoredSnapshot } from "@sightline/db";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** What collection found: an AWS account, or an Azure subscription (`metadata.provider`). */
export type StoredCollection = CollectedAccount | CollectedSubscription;

export function isAzureCollection(collected: StoredCollection): collected is CollectedSubscription {
  return (collected.metadata as { provider?: string }).provider === "azure";
}

/** Stores what collection found for an execution: gzip-compressed JSON, as the engine reads it. */
export async function storeCollection(
  db: Executor,
  execution: { executionId: string; customerId: string; accountId: string },
  collected: StoredCollection,
): Promise<void> {
  await insertSnapshot(db, {
    executionId: execution.executionId,
    customerId: execution.customerId,
    accountId: execution.accountId,
    collectedAt: new Date(collected.metadata.finishedAt),
    data: await gzipAsync(JSON.stringify(collected)),
    // What an SCP or RCP event of its management account fans out by ('' when none was seen).
    organizationId: isAzureCollection(collected)
      ? ""
      : (collected.snapshot.organization?.organizationId ?? ""),
  });
}

export async function readCollection(stored: StoredSnapshot): Promise<StoredCollection> {
  return readCollectionData(stored.data);
}

/** A stored collection's bytes (gzip-compressed JSON) read back. */
export async function readCollectionData(data: Buffer): Promise<StoredCollection> {
  return JSON.parse((await gunzipAsync(data)).toString("utf8")) as StoredCollection;
}
