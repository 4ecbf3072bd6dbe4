import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { deliveryVerifications } from "./schema.ts";

/** An S3 destination of an owner (a partner or a direct customer). */
export interface S3Destination {
  /** The partner ID or the direct customer's ID: the proof key is named after it. */
  ownerId: string;
  bucketName: string;
  expectedBucketOwner?: string;
}

/** The token issued for a destination, and whether the owner has proven it. */
export interface DeliveryVerificationRow {
  bucketName: string;
  expectedBucketOwner?: string;
  token: string;
  provenAt?: Date;
}

type Row = typeof deliveryVerifications.$inferSelect;
const toVerification = (row: Row): DeliveryVerificationRow => ({
  bucketName: row.bucketName,
  ...(row.expectedBucketOwner ? { expectedBucketOwner: row.expectedBucketOwner } : {}),
  token: row.token,
  ...(row.provenAt ? { provenAt: row.provenAt } : {}),
});

/**
 * The verification of the owner's current destination: the one issued before when the bucket
 * and its expected owner are unchanged, else a new unproven one with `newToken` (a changed
 * destination must be proven again).
 */
export async function issueDeliveryVerification(
  db: Executor,
  destination: S3Destination,
  newToken: string,
): Promise<DeliveryVerificationRow> {
  const owner = destination.expectedBucketOwner ?? null;
  const [row] = await db
    .insert(deliveryVerifications)
    .values({
      ownerId: destination.ownerId,
      bucketName: destination.bucketName,
      expectedBucketOwner: owner,
      token: newToken,
    })
    .onConflictDoUpdate({
      target: deliveryVerifications.ownerId,
      set: {
        bucketName: destination.bucketName,
        expectedBucketOwner: owner,
        token: newToken,
        provenAt: null,
        createdAt: sql`now()`,
      },
      // An unchanged destination keeps its token (and proof): the row is only read back.
      setWhere: sql`${deliveryVerifications.bucketName} <> excluded.bucket_name or ${deliveryVerifications.expectedBucketOwner} is distinct from excluded.expected_bucket_owner`,
    })
    .returning();
  if (row) return toVerification(row);
  const [kept] = await db
    .select()
    .from(deliveryVerifications)
    .where(eq(deliveryVerifications.ownerId, destination.ownerId));
  if (!kept) throw new Error("delivery verification vanished while it was issued");
  return toVerification(kept);
}

/** Records the proof of the destination the token was issued for; false if it changed since. */
export async function markDeliveryProven(
  db: Executor,
  destination: S3Destination,
  token: string,
): Promise<boolean> {
  const rows = await db
    .update(deliveryVerifications)
    .set({ provenAt: sql`now()` })
    .where(
      and(
        eq(deliveryVerifications.ownerId, destination.ownerId),
        eq(deliveryVerifications.bucketName, destination.bucketName),
        sql`${deliveryVerifications.expectedBucketOwner} is not distinct from ${destination.expectedBucketOwner ?? null}`,
        eq(deliveryVerifications.token, token),
      ),
    )
    .returning({ ownerId: deliveryVerifications.ownerId });
  return rows.length > 0;
}

/**
 * The proof of an owner's destination no longer holds (its token is gone from the bucket): the
 * destination must be proven again before anything is delivered to it. False if it was not proven.
 */
export async function markDeliveryUnproven(db: Executor, ownerId: string): Promise<boolean> {
  const rows = await db
    .update(deliveryVerifications)
    .set({ provenAt: null })
    .where(and(eq(deliveryVerifications.ownerId, ownerId), sql`proven_at is not null`))
    .returning({ ownerId: deliveryVerifications.ownerId });
  return rows.length > 0;
}
