import { and, desc, eq, like } from "drizzle-orm";
import type { Executor } from "./client.ts";
import {
  accountSnapshots,
  customerAccounts,
  monitoredAccounts,
  partnerCustomers,
} from "./schema.ts";

/** The organisation of an account's newest snapshot: `o-…`, '' when none, null when not kept. */
export async function organizationOfAccount(
  db: Executor,
  key: { customerId: string; accountId: string },
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ organizationId: accountSnapshots.organizationId })
    .from(accountSnapshots)
    .where(
      and(
        eq(accountSnapshots.customerId, key.customerId),
        eq(accountSnapshots.accountId, key.accountId),
      ),
    )
    .orderBy(desc(accountSnapshots.collectedAt))
    .limit(1);
  return row?.organizationId;
}

/** The customer's monitored AWS accounts (a partner customer's, or a direct customer's). */
async function awsAccountsOf(db: Executor, customerId: string): Promise<string[]> {
  const aws = "aws%";
  const rows = customerId.startsWith("P")
    ? await db
        .select({ accountId: monitoredAccounts.accountId })
        .from(monitoredAccounts)
        .innerJoin(
          partnerCustomers,
          and(
            eq(partnerCustomers.partnerId, monitoredAccounts.partnerId),
            eq(partnerCustomers.partnerCustomerId, monitoredAccounts.partnerCustomerId),
          ),
        )
        .where(
          and(eq(partnerCustomers.customerId, customerId), like(monitoredAccounts.provider, aws)),
        )
    : await db
        .select({ accountId: customerAccounts.accountId })
        .from(customerAccounts)
        .where(
          and(eq(customerAccounts.customerId, customerId), like(customerAccounts.provider, aws)),
        );
  return rows.map((row) => row.accountId);
}

/**
 * The customer's other monitored AWS accounts in an organisation, by their newest snapshots: those
 * in it, and those whose organisation was not kept yet (snapshots older than the column: an SCP
 * may reach them, and re-reading costs one step). Another customer's accounts are never listed,
 * whatever organisation they are in; accounts never analysed neither (the daily run will be their
 * first look, SCPs included).
 */
export async function organizationMembers(
  db: Executor,
  query: { customerId: string; organizationId: string; exceptAccountId: string },
): Promise<string[]> {
  const monitored = new Set(await awsAccountsOf(db, query.customerId));
  const newest = await db
    .selectDistinctOn([accountSnapshots.accountId], {
      accountId: accountSnapshots.accountId,
      organizationId: accountSnapshots.organizationId,
    })
    .from(accountSnapshots)
    .where(eq(accountSnapshots.customerId, query.customerId))
    .orderBy(accountSnapshots.accountId, desc(accountSnapshots.collectedAt));
  return newest
    .filter(
      (row) =>
        row.accountId !== query.exceptAccountId &&
        monitored.has(row.accountId) &&
        (row.organizationId === null || row.organizationId === query.organizationId),
    )
    .map((row) => row.accountId);
}
