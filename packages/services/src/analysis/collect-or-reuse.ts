import { type CollectedAccount, collectAccount } from "@sightline/aws";
import {
  type AccountContext,
  deleteExecutionCredential,
  type ExecutionRow,
  getSnapshotOfExecution,
} from "@sightline/db";
import type { AwsPartition } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { readCollection, storeCollection } from "../snapshots/stored-collection.ts";
import type { AnalysisSettings } from "./analysis-settings.ts";
import { obtainCredentials } from "./obtain-credentials.ts";

/**
 * The account's configuration for this execution: collected from AWS and stored (compressed)
 * the first time, read back from the store when a retry runs. An own credential is deleted as
 * soon as the collection that needed it is stored.
 */
export async function collectOrReuse(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
): Promise<CollectedAccount> {
  const stored = await getSnapshotOfExecution(ctx.db, execution.executionId);
  if (stored) return readCollection(stored);
  const credentials = await obtainCredentials(ctx, settings, execution, account);
  const collected = await collectAccount({
    credentials,
    accountId: execution.accountId,
    partition: execution.provider as AwsPartition,
    ...(settings.regions ? { regions: settings.regions } : {}),
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
    ...settings.collection,
  });
  await storeCollection(ctx.db, execution, collected);
  if (execution.authMethod === "credential")
    await deleteExecutionCredential(ctx.db, execution.executionId);
  return collected;
}
