import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { type Database, finishExecution, insertExecution, insertSnapshot } from "@sightline/db";
// The engine's generator is bench code, not part of its package exports: imported by path.
import {
  generateOrganisation,
  type OrganisationSize,
} from "../../../packages/engine/bench/generate-organisation.ts";

const gzipAsync = promisify(gzip);

/**
 * Stores the engine bench's seeded organisation (`accounts` accounts, `roles` roles, trusts
 * across them) as a customer's analysed accounts, one succeeded execution and snapshot each, as
 * a worker leaves them: what endpoint 12 builds its graph from. Returns the account IDs and an
 * ARN of a role of the first account.
 */
export async function storeOrganisation(
  db: Database,
  customerId: string,
  size: OrganisationSize,
): Promise<{ accountIds: string[]; roleArn: string }> {
  const snapshots = generateOrganisation(size);
  const suffix = randomBytes(2).toString("hex").toUpperCase();
  for (const snapshot of snapshots) {
    const accountId = snapshot.accountId as string;
    const executionId = `ondemand-${customerId}-${accountId}-2026-01-01_${suffix}`;
    await insertExecution(
      db,
      {
        execution: {
          executionId,
          kind: "ondemand",
          customerId,
          accountId,
          provider: "aws",
          authMethod: "config",
        },
      },
      async () => {},
    );
    await finishExecution(db, executionId, { status: "succeeded", reportKeys: [], warnings: [] });
    const collected = { snapshot, metadata: {}, warnings: [] };
    await insertSnapshot(db, {
      executionId,
      customerId,
      accountId,
      collectedAt: new Date(),
      data: await gzipAsync(JSON.stringify(collected)),
    });
  }
  const first = snapshots[0];
  if (!first) throw new Error("an organisation of no account");
  const roles = (first.authorizationDetails as { RoleDetailList: { Arn: string }[] })
    .RoleDetailList;
  return {
    accountIds: snapshots.map((s) => s.accountId as string),
    roleArn: roles[2]?.Arn ?? roles[0]?.Arn ?? "",
  };
}
