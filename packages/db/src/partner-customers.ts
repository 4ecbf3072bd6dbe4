import type { PartnerCustomerConfig, PartnerCustomerRef } from "@sightline/domain";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "./errors.ts";
import { partnerCustomers } from "./schema.ts";

export interface PartnerCustomerKey {
  partnerId: string;
  partnerCustomerId: string;
}

/**
 * Creates or replaces a partner customer. The customerId is drawn from a sequence on first
 * creation only; concurrent first PUTs meet in ON CONFLICT and all see the winner's number.
 * Returns undefined when the partner does not exist.
 */
export async function upsertPartnerCustomer(
  db: Executor,
  input: PartnerCustomerConfig,
): Promise<PartnerCustomerRef | undefined> {
  const values = {
    partnerId: input.partnerId,
    partnerCustomerId: input.partnerCustomerId,
    subscriptionPlanName: input.subscriptionPlanName,
    deliveryDestinations: input.deliveryDestinations,
    featureFlags: input.featureFlags ?? {},
  };
  try {
    const [row] = await db
      .insert(partnerCustomers)
      .values(values)
      .onConflictDoUpdate({
        target: [partnerCustomers.partnerId, partnerCustomers.partnerCustomerId],
        set: {
          subscriptionPlanName: values.subscriptionPlanName,
          deliveryDestinations: values.deliveryDestinations,
          featureFlags: values.featureFlags,
          updatedAt: sql`now()`,
        },
      })
      .returning({ customerId: partnerCustomers.customerId });
    if (!row) throw new Error("upsert returned no row");
    return {
      partnerId: input.partnerId,
      partnerCustomerId: input.partnerCustomerId,
      customerId: row.customerId,
    };
  } catch (error) {
    if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) return undefined;
    throw error;
  }
}

export async function getPartnerCustomer(
  db: Executor,
  key: PartnerCustomerKey,
): Promise<(PartnerCustomerConfig & { customerId: string }) | undefined> {
  const [row] = await db
    .select()
    .from(partnerCustomers)
    .where(
      and(
        eq(partnerCustomers.partnerId, key.partnerId),
        eq(partnerCustomers.partnerCustomerId, key.partnerCustomerId),
      ),
    );
  if (!row) return undefined;
  return {
    partnerId: row.partnerId,
    partnerCustomerId: row.partnerCustomerId,
    customerId: row.customerId,
    subscriptionPlanName: row.subscriptionPlanName as PartnerCustomerConfig["subscriptionPlanName"],
    deliveryDestinations: row.deliveryDestinations as PartnerCustomerConfig["deliveryDestinations"],
    featureFlags: row.featureFlags,
  };
}

/** A partner's customers in `partnerCustomerId` order, with the customer IDs Sightline gave them. */
export async function listPartnerCustomers(
  db: Executor,
  partnerId: string,
): Promise<{ partnerCustomerId: string; customerId: string; subscriptionPlanName: string }[]> {
  return db
    .select({
      partnerCustomerId: partnerCustomers.partnerCustomerId,
      customerId: partnerCustomers.customerId,
      subscriptionPlanName: partnerCustomers.subscriptionPlanName,
    })
    .from(partnerCustomers)
    .where(eq(partnerCustomers.partnerId, partnerId))
    .orderBy(asc(partnerCustomers.partnerCustomerId));
}
