import { collectAccount } from "@sightline/aws";
import { type AzureCloudName, collectSubscription } from "@sightline/azure";
import {
  type AccountContext,
  deleteExecutionCredential,
  type ExecutionRow,
  getSnapshotOfExecution,
} from "@sightline/db";
import { type AwsPartition, isAzureProvider, type Provider } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { type JobLease, UNLEASED } from "../queue/job-lease.ts";
import {
  readCollection,
  type StoredCollection,
  storeCollection,
} from "../snapshots/stored-collection.ts";
import type { AnalysisSettings } from "./analysis-settings.ts";
import { azureEndpointsFor, obtainAzureCredential } from "./obtain-azure-credential.ts";
import { obtainCredentials } from "./obtain-credentials.ts";

async function collect(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
): Promise<StoredCollection> {
  if (isAzureProvider(execution.provider as Provider)) {
    const cloud = execution.provider as AzureCloudName;
    const endpoints = azureEndpointsFor(settings, cloud);
    const { credential, tenantId } = obtainAzureCredential(settings, execution, account, endpoints);
    return collectSubscription({
      subscriptionId: execution.accountId,
      cloud,
      credential,
      endpoints,
      ...(tenantId ? { tenantId } : {}),
      ...(settings.azure?.http ? { http: settings.azure.http } : {}),
      now: ctx.now,
    });
  }
  const credentials = await obtainCredentials(ctx, settings, execution, account);
  return collectAccount({
    credentials,
    accountId: execution.accountId,
    partition: execution.provider as AwsPartition,
    ...(settings.regions ? { regions: settings.regions } : {}),
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
    ...settings.collection,
  });
}

/**
 * The account's configuration for this execution: collected from AWS or Azure and stored
 * (compressed) the first time, read back from the store when a retry runs. An own credential
 * is deleted as soon as the collection that needed it is stored. Both are written as the attempt
 * holding the job's lease: one that lost it (paused, then woken) would otherwise replace the
 * snapshot its successor analysed with a collection of its own.
 */
export async function collectOrReuse(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  lease: JobLease = UNLEASED,
): Promise<StoredCollection> {
  const stored = await getSnapshotOfExecution(ctx.db, execution.executionId);
  if (stored) return readCollection(stored);
  const collected = await collect(ctx, settings, execution, account);
  await lease.fenced(ctx.db, async (tx) => {
    await storeCollection(tx, execution, collected);
    if (execution.authMethod === "credential")
      await deleteExecutionCredential(tx, execution.executionId);
  });
  return collected;
}
