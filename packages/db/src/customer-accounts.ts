import {
  type CustomerAccountConfig,
  type CustomerAccountRecord,
  type DeletedCustomerAccount,
  PLAN_LIMITS,
  type Provider,
  type SubscriptionPlanName,
} from "@sightline/domain";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { auditorRoleOf, auditorRoleTakenByOthers } from "./auditor-roles.ts";
import type { Executor } from "./client.ts";
import { deleteAccountEventSource } from "./event-sources.ts";
import type { UpsertAccountResult } from "./monitored-accounts.ts";
import { customerAccounts, directCustomers } from "./schema.ts";

export interface CustomerAccountKey {
  customerId: string;
  accountId: string;
}

const toRecord = (row: { customerId: string; accountId: string; provider: string }) => ({
  customerId: row.customerId,
  accountId: row.accountId,
  provider: row.provider as Provider,
});

/**
 * Creates or replaces a direct customer's monitored account, within its plan's limit; the
 * customer's row is locked so that concurrent PUTs cannot pass the limit together. An AWS role
 * and external ID that another owner configures is refused (see auditor-roles.ts).
 */
export async function upsertCustomerAccount(
  db: Executor,
  input: CustomerAccountConfig,
): Promise<UpsertAccountResult<CustomerAccountRecord>> {
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select({ plan: directCustomers.subscriptionPlanName })
      .from(directCustomers)
      .where(eq(directCustomers.customerId, input.customerId))
      .for("update");
    if (!customer) return { kind: "unknown-customer" };
    const plan = customer.plan as SubscriptionPlanName;
    const limit = PLAN_LIMITS[plan].monitoredAccounts;
    const [counted] = await tx
      .select({
        total: count(),
        self: count(sql`case when ${customerAccounts.accountId} = ${input.accountId} then 1 end`),
      })
      .from(customerAccounts)
      .where(eq(customerAccounts.customerId, input.customerId));
    if (counted && counted.self === 0 && counted.total >= limit)
      return { kind: "limit-reached", plan, limit };
    const role = auditorRoleOf(input.auditorAuthConfig);
    if (role && (await auditorRoleTakenByOthers(tx, role, input))) return { kind: "role-in-use" };
    const values = {
      customerId: input.customerId,
      accountId: input.accountId,
      provider: input.provider,
      auditorAuthMethod: input.auditorAuthMethod,
      auditorAuthConfig: input.auditorAuthConfig ?? null,
    };
    await tx
      .insert(customerAccounts)
      .values(values)
      .onConflictDoUpdate({
        target: [customerAccounts.customerId, customerAccounts.accountId],
        set: { ...values, updatedAt: sql`now()` },
      });
    return { kind: "stored", record: toRecord(values) };
  });
}

/** Idempotent: no `provider` when there was nothing to delete; undefined for an unknown customer. */
export async function deleteCustomerAccount(
  db: Executor,
  key: CustomerAccountKey,
): Promise<DeletedCustomerAccount | undefined> {
  const [customer] = await db
    .select({ customerId: directCustomers.customerId })
    .from(directCustomers)
    .where(eq(directCustomers.customerId, key.customerId));
  if (!customer) return undefined;
  const [deleted] = await db
    .delete(customerAccounts)
    .where(
      and(
        eq(customerAccounts.customerId, key.customerId),
        eq(customerAccounts.accountId, key.accountId),
      ),
    )
    .returning({ provider: customerAccounts.provider });
  // An account no longer monitored takes no events: its token stops with it.
  await deleteAccountEventSource(db, key);
  return {
    customerId: key.customerId,
    accountId: key.accountId,
    ...(deleted ? { provider: deleted.provider as Provider } : {}),
  };
}

/** A direct customer's monitored accounts by account ID; undefined for an unknown customer. */
export async function listCustomerAccounts(
  db: Executor,
  customerId: string,
): Promise<CustomerAccountRecord[] | undefined> {
  const rows = await db
    .select({ accountId: customerAccounts.accountId, provider: customerAccounts.provider })
    .from(directCustomers)
    .leftJoin(customerAccounts, eq(customerAccounts.customerId, directCustomers.customerId))
    .where(eq(directCustomers.customerId, customerId))
    .orderBy(asc(customerAccounts.accountId));
  if (rows.length === 0) return undefined;
  return rows.flatMap((row) =>
    row.accountId && row.provider
      ? [toRecord({ customerId, accountId: row.accountId, provider: row.provider })]
      : [],
  );
}
