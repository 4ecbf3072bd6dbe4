import { DEFAULT_REVIEW_SETTINGS, ReviewSettings } from "@sightline/domain";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { reviewSettings } from "./schema.ts";

/** A customer's review settings; the defaults when it set none (or stored ones no longer parse). */
export async function getReviewSettings(db: Executor, customerId: string): Promise<ReviewSettings> {
  const [row] = await db
    .select({ settings: reviewSettings.settings })
    .from(reviewSettings)
    .where(eq(reviewSettings.customerId, customerId));
  const parsed = ReviewSettings.safeParse(row?.settings ?? {});
  return parsed.success ? parsed.data : DEFAULT_REVIEW_SETTINGS;
}

export async function putReviewSettings(
  db: Executor,
  customerId: string,
  settings: ReviewSettings,
): Promise<ReviewSettings> {
  await db
    .insert(reviewSettings)
    .values({ customerId, settings })
    .onConflictDoUpdate({
      target: reviewSettings.customerId,
      set: { settings, updatedAt: sql`now()` },
    });
  return settings;
}
