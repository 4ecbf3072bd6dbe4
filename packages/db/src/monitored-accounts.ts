import {
  type AccountMonitoringConfig,
  type DeletedMonitoredAccount,
  type MonitoredAccountRecord,
  PLAN_LIMITS,
  type Provider,
  type SubscriptionPlanName,
} from "@sightline/domain";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { auditorRoleOf, auditorRoleTakenByOthers } from "./auditor-roles.ts";
import type { Executor } from "./client.ts";
import { deleteAccountEventSource } from "./event-sources.ts";
import type { PartnerCustomerKey } from "./partner-customers.ts";
import { monitoredAccounts, partnerCustomers } from "./schema.ts";

export interface MonitoredAccountKey extends PartnerCustomerKey {
  accountId: string;
}

function customerIdOf(db: Executor, key: PartnerCustomerKey, lock?: "update") {
  const query = db
    .select({
      customerId: partnerCustomers.customerId,
      plan: partnerCustomers.subscriptionPlanName,
    })
    .from(partnerCustomers)
    .where(
      and(
        eq(partnerCustomers.partnerId, key.partnerId),
        eq(partnerCustomers.partnerCustomerId, key.partnerCustomerId),
      ),
    );
  return (lock ? query.for(lock) : query).then((rows) => rows[0]);
}

const ofCustomer = (key: PartnerCustomerKey) =>
  and(
    eq(monitoredAccounts.partnerId, key.partnerId),
    eq(monitoredAccounts.partnerCustomerId, key.partnerCustomerId),
  );

/** What storing an account's monitoring did. */
export type UpsertAccountResult<R> =
  | { kind: "stored"; record: R }
  | { kind: "unknown-customer" }
  | { kind: "limit-reached"; plan: SubscriptionPlanName; limit: number }
  /** Another owner configures the same role ARN and external ID: nothing stored. */
  | { kind: "role-in-use" };

/**
 * Creates or replaces an account's monitoring. A new account beyond the customer's plan limit
 * is refused; the customer's row is locked so that concurrent PUTs cannot pass it together.
 * So is an AWS role and external ID that another owner configures (see auditor-roles.ts).
 */
export async function upsertMonitoredAccount(
  db: Executor,
  input: AccountMonitoringConfig,
): Promise<UpsertAccountResult<MonitoredAccountRecord>> {
  return db.transaction(async (tx) => {
    const customer = await customerIdOf(tx, input, "update");
    if (!customer) return { kind: "unknown-customer" };
    const plan = customer.plan as SubscriptionPlanName;
    const limit = PLAN_LIMITS[plan].monitoredAccounts;
    const [counted] = await tx
      .select({
        total: count(),
        self: count(sql`case when ${monitoredAccounts.accountId} = ${input.accountId} then 1 end`),
      })
      .from(monitoredAccounts)
      .where(ofCustomer(input));
    if (counted && counted.self === 0 && counted.total >= limit)
      return { kind: "limit-reached", plan, limit };
    const role = auditorRoleOf(input.auditorAuthConfig);
    if (role && (await auditorRoleTakenByOthers(tx, role, input))) return { kind: "role-in-use" };
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
      kind: "stored",
      record: {
        partnerId: input.partnerId,
        partnerCustomerId: input.partnerCustomerId,
        customerId: customer.customerId,
        provider: input.provider,
        accountId: input.accountId,
      },
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
  const customer = await customerIdOf(db, key);
  if (!customer) return undefined;
  const { customerId } = customer;
  const [deleted] = await db
    .delete(monitoredAccounts)
    .where(and(ofCustomer(key), eq(monitoredAccounts.accountId, key.accountId)))
    .returning({ provider: monitoredAccounts.provider });
  // An account no longer monitored takes no events: its token stops with it.
  await deleteAccountEventSource(db, { customerId, accountId: key.accountId });
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
