import type { DirectCustomerConfig, DirectCustomerRecord } from "@sightline/domain";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { directCustomers } from "./schema.ts";

function toRecord(row: typeof directCustomers.$inferSelect): DirectCustomerRecord {
  return {
    customerId: row.customerId,
    ...(row.name ? { name: row.name } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Registers or renames a direct customer (operator only). */
export async function upsertDirectCustomer(
  db: Executor,
  input: DirectCustomerConfig,
): Promise<DirectCustomerRecord> {
  const [row] = await db
    .insert(directCustomers)
    .values({ customerId: input.customerId, name: input.name ?? null })
    .onConflictDoUpdate({
      target: directCustomers.customerId,
      set: { name: input.name ?? null, updatedAt: sql`now()` },
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
