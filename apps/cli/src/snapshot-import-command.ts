import { createDb, runMigrations } from "@sightline/db";
import type { AwsPartition } from "@sightline/domain";
import { parseAuthorizationDetails } from "@sightline/engine";
import { parseArn } from "@sightline/engine/arn";
import { importSnapshot } from "@sightline/services";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";

export interface SnapshotImportCommand extends Omit<SnapshotFiles, "authorizationDetails"> {
  authorizationDetails: string;
  partnerId: string;
  partnerCustomerId: string;
  accountId: string;
  partition: AwsPartition;
  databaseUrl: string;
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
 * Migrates the database first, as the API and the worker do at start-up.
 */
export async function runSnapshotImport(
  command: SnapshotImportCommand,
): Promise<{ executionId: string; customerId: string }> {
  const [snapshot] = await loadSnapshots({
    ...command,
    authorizationDetails: [command.authorizationDetails],
  });
  if (!snapshot) throw new Error("no snapshot read");
  checkAccount(command, snapshot.authorizationDetails);
  await runMigrations(command.databaseUrl);
  const { db, close } = createDb(command.databaseUrl);
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
  }
}
