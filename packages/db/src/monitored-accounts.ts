import type {
  AccountMonitoringConfig,
  DeletedMonitoredAccount,
  MonitoredAccountRecord,
  Provider,
} from "@sightline/domain";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import type { PartnerCustomerKey } from "./partner-customers.ts";
import { monitoredAccounts, partnerCustomers } from "./schema.ts";

export interface MonitoredAccountKey extends PartnerCustomerKey {
  accountId: string;
}

function customerIdOf(db: Executor, key: PartnerCustomerKey, lock: boolean) {
  const query = db
    .select({ customerId: partnerCustomers.customerId })
    .from(partnerCustomers)
    .where(
      and(
        eq(partnerCustomers.partnerId, key.partnerId),
        eq(partnerCustomers.partnerCustomerId, key.partnerCustomerId),
      ),
    );
  return (lock ? query.for("share") : query).then((rows) => rows[0]?.customerId);
}

/** Creates or replaces an account's monitoring; undefined when the partner customer is unknown. */
export async function upsertMonitoredAccount(
  db: Executor,
  input: AccountMonitoringConfig,
): Promise<MonitoredAccountRecord | undefined> {
  return db.transaction(async (tx) => {
    const customerId = await customerIdOf(tx, input, true);
    if (!customerId) return undefined;
    const values = {
      partnerId: input.partnerId,
      partnerCustomerId: input.partnerCustomerId,
      accountId: input.accountId,
      provider: input.provider,
      auditorAuthMethod: input.auditorAuthMethod,
      auditorAuthConfig: input.auditorAuthConfig ?? null,
    };
    await tx
      .insert(monitoredAccounts)
      .values(values)
      .onConflictDoUpdate({
        target: [
          monitoredAccounts.partnerId,
          monitoredAccounts.partnerCustomerId,
          monitoredAccounts.accountId,
        ],
        set: {
          provider: values.provider,
          auditorAuthMethod: values.auditorAuthMethod,
          auditorAuthConfig: values.auditorAuthConfig,
          updatedAt: sql`now()`,
        },
      });
    return {
      partnerId: input.partnerId,
      partnerCustomerId: input.partnerCustomerId,
      customerId,
      provider: input.provider,
      accountId: input.accountId,
    };
  });
}

/**
 * Removes an account's monitoring. Deleting a configuration that does not exist succeeds (no
 * `provider` then); undefined means the partner customer itself is unknown.
 */
export async function deleteMonitoredAccount(
  db: Executor,
  key: MonitoredAccountKey,
): Promise<DeletedMonitoredAccount | undefined> {
  const customerId = await customerIdOf(db, key, false);
  if (!customerId) return undefined;
  const [deleted] = await db
    .delete(monitoredAccounts)
    .where(
      and(
        eq(monitoredAccounts.partnerId, key.partnerId),
        eq(monitoredAccounts.partnerCustomerId, key.partnerCustomerId),
        eq(monitoredAccounts.accountId, key.accountId),
      ),
    )
    .returning({ provider: monitoredAccounts.provider });
  return {
    partnerId: key.partnerId,
    partnerCustomerId: key.partnerCustomerId,
    customerId,
    ...(deleted ? { provider: deleted.provider as Provider } : {}),
    accountId: key.accountId,
  };
}

/** The partner customer's monitored accounts, by account ID; undefined when it is unknown. */
export async function listMonitoredAccounts(
  db: Executor,
  key: PartnerCustomerKey,
): Promise<MonitoredAccountRecord[] | undefined> {
  const rows = await db
    .select({
      customerId: partnerCustomers.customerId,
      accountId: monitoredAccounts.accountId,
      provider: monitoredAccounts.provider,
    })
    .from(partnerCustomers)
    .leftJoin(
      monitoredAccounts,
      and(
        eq(monitoredAccounts.partnerId, partnerCustomers.partnerId),
        eq(monitoredAccounts.partnerCustomerId, partnerCustomers.partnerCustomerId),
      ),
    )
    .where(
      and(
        eq(partnerCustomers.partnerId, key.partnerId),
        eq(partnerCustomers.partnerCustomerId, key.partnerCustomerId),
      ),
    )
    .orderBy(asc(monitoredAccounts.accountId));
  if (rows.length === 0) return undefined;
  return rows.flatMap((row) =>
    row.accountId && row.provider
      ? [
          {
            partnerId: key.partnerId,
            partnerCustomerId: key.partnerCustomerId,
            customerId: row.customerId,
            provider: row.provider as Provider,
            accountId: row.accountId,
          },
        ]
      : [],
  );
}
