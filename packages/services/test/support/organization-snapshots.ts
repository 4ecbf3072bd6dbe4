import { promisify } from "node:util";
import { gzip } from "node:zlib";
import {
  type Executor,
  finishExecution,
  insertExecution,
  insertSnapshot,
  upsertMonitoredAccount,
} from "@sightline/db";

const gzipAsync = promisify(gzip);

/**
 * Monitors one more AWS account for a partner's customer, with a stored snapshot (of no
 * principals) that names `organizationId`, as if the account had been analysed: an SCP event
 * with a management account's token reaches the customer's accounts of that organisation.
 */
export async function monitorWithSnapshot(
  db: Executor,
  owner: { partnerId: string; partnerCustomerId: string; customerId: string },
  accountId: string,
  organizationId: string | null,
): Promise<void> {
  const stored = await upsertMonitoredAccount(db, {
    partnerId: owner.partnerId,
    partnerCustomerId: owner.partnerCustomerId,
    accountId,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: {
      roleArn: `arn:aws:iam::${accountId}:role/SightlineAuditor`,
      externalId: `ext-${owner.partnerId}-${accountId}`,
    },
  });
  if (stored.kind !== "stored") throw new Error(`${accountId} not monitored: ${stored.kind}`);
  const executionId = `ondemand-${owner.customerId}-${accountId}-2026-01-01_ORG1`;
  const account = { customerId: owner.customerId, accountId };
  await insertExecution(
    db,
    {
      execution: {
        executionId,
        kind: "ondemand",
        ...account,
        partnerId: owner.partnerId,
        partnerCustomerId: owner.partnerCustomerId,
        provider: "aws",
        authMethod: "config",
      },
    },
    async () => {},
  );
  await finishExecution(db, executionId, { status: "succeeded", reportKeys: [], warnings: [] });
  const details = { UserDetailList: [], GroupDetailList: [], RoleDetailList: [], Policies: [] };
  const collected = {
    snapshot: { authorizationDetails: details, accountId },
    metadata: { accountId, finishedAt: new Date().toISOString() },
    warnings: [],
  };
  await insertSnapshot(db, {
    executionId,
    ...account,
    collectedAt: new Date(),
    data: await gzipAsync(JSON.stringify(collected)),
    organizationId,
  });
}
