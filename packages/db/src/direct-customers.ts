import type {
  DirectCustomerConfig,
  DirectCustomerRecord,
  DirectCustomerSettings,
  DirectCustomerView,
  SubscriptionPlanName,
} from "@sightline/domain";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { directCustomers } from "./schema.ts";

type Row = typeof directCustomers.$inferSelect;

function toRecord(row: Row): DirectCustomerRecord {
  return {
    customerId: row.customerId,
    ...(row.name ? { name: row.name } : {}),
    subscriptionPlanName: row.subscriptionPlanName as SubscriptionPlanName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Registers or renames a direct customer and sets its plan (operator only). */
export async function upsertDirectCustomer(
  db: Executor,
  input: DirectCustomerConfig,
): Promise<DirectCustomerRecord> {
  const plan = input.subscriptionPlanName ?? "Starter";
  const [row] = await db
    .insert(directCustomers)
    .values({ customerId: input.customerId, name: input.name ?? null, subscriptionPlanName: plan })
    .onConflictDoUpdate({
      target: directCustomers.customerId,
      set: {
        name: input.name ?? null,
        ...(input.subscriptionPlanName ? { subscriptionPlanName: plan } : {}),
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!row) throw new Error("upsert returned no row");
  return toRecord(row);
}

export async function getDirectCustomer(
  db: Executor,
  customerId: string,
): Promise<DirectCustomerRecord | undefined> {
  const [row] = await db
    .select()
    .from(directCustomers)
    .where(eq(directCustomers.customerId, customerId));
  return row ? toRecord(row) : undefined;
}

function toView(row: Row): DirectCustomerView {
  return {
    customerId: row.customerId,
    ...(row.name ? { name: row.name } : {}),
    subscriptionPlanName: row.subscriptionPlanName as SubscriptionPlanName,
    ...(row.awsEncryptionKeyId ? { awsEncryptionKeyId: row.awsEncryptionKeyId } : {}),
    deliveryDestinations: row.deliveryDestinations as DirectCustomerView["deliveryDestinations"],
    featureFlags: row.featureFlags,
  };
}

/**
 * Replaces a registered direct customer's delivery settings (PUT semantics: absent fields are
 * cleared). Undefined when the customer is not registered.
 */
export async function putDirectCustomerSettings(
  db: Executor,
  input: DirectCustomerSettings,
): Promise<DirectCustomerView | undefined> {
  const [row] = await db
    .update(directCustomers)
    .set({
      awsEncryptionKeyId: input.awsEncryptionKeyId ?? null,
      deliveryDestinations: input.deliveryDestinations ?? {},
      featureFlags: input.featureFlags ?? {},
      updatedAt: sql`now()`,
    })
    .where(eq(directCustomers.customerId, input.customerId))
    .returning();
  return row ? toView(row) : undefined;
}

export async function getDirectCustomerView(
  db: Executor,
  customerId: string,
): Promise<DirectCustomerView | undefined> {
  const [row] = await db
    .select()
    .from(directCustomers)
    .where(eq(directCustomers.customerId, customerId));
  return row ? toView(row) : undefined;
}
