import { createDb, openServiceDatabase } from "@sightline/db";
import type { AwsPartition } from "@sightline/domain";
import { parseAuthorizationDetails } from "@sightline/engine";
import { parseArn } from "@sightline/engine/arn";
import type { Logger } from "@sightline/logging";
import { importSnapshot } from "@sightline/services";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";

export interface SnapshotImportCommand extends Omit<SnapshotFiles, "authorizationDetails"> {
  authorizationDetails: string;
  partnerId: string;
  partnerCustomerId: string;
  accountId: string;
  partition: AwsPartition;
  /** DATABASE_URL; when absent, the embedded Postgres in `<dataDir>/postgres`. */
  databaseUrl?: string;
  dataDir: string;
}

/** Refuses a file of another account or partition: it would be stored under the wrong one. */
function checkAccount(command: SnapshotImportCommand, authorizationDetails: unknown): void {
  const file = command.authorizationDetails;
  if (
    !authorizationDetails ||
    typeof authorizationDetails !== "object" ||
    Array.isArray(authorizationDetails)
  )
    throw new Error(
      `${file}: expected the output of aws iam get-account-authorization-details, a JSON object`,
    );
  const details = parseAuthorizationDetails(authorizationDetails).value;
  if (details.accountId && details.accountId !== command.accountId)
    throw new Error(
      `${file} describes account ${details.accountId}, not --account ${command.accountId}`,
    );
  const arn = [...details.users, ...details.roles, ...details.groups][0]?.arn;
  const partition = arn ? parseArn(arn)?.partition : undefined;
  if (partition && partition !== command.partition)
    throw new Error(`${file} is in partition ${partition}, not --partition ${command.partition}`);
}

/**
 * `sightline snapshot import`: stores an exported account as the newest snapshot of a partner
 * customer's account, through the service's own import, so that endpoint 12 answers from it.
 * The database is the one the service uses: DATABASE_URL, or its embedded Postgres — the running
 * service's, or started for the command and stopped after it — migrated first, as at start-up.
 */
export async function runSnapshotImport(
  command: SnapshotImportCommand,
  logger: Logger,
): Promise<{ executionId: string; customerId: string }> {
  const [snapshot] = await loadSnapshots({
    ...command,
    authorizationDetails: [command.authorizationDetails],
  });
  if (!snapshot) throw new Error("no snapshot read");
  checkAccount(command, snapshot.authorizationDetails);
  const database = await openServiceDatabase({
    databaseUrl: command.databaseUrl,
    dataDir: command.dataDir,
    logger,
  });
  const { db, close } = createDb(database.url);
  try {
    return await importSnapshot(
      { db, now: () => new Date() },
      {
        partnerId: command.partnerId,
        partnerCustomerId: command.partnerCustomerId,
        accountId: command.accountId,
        partition: command.partition,
        snapshot,
      },
    );
  } finally {
    await close();
    await database.stop();
  }
}
