import { eq } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "./errors.ts";
import { apiKeys } from "./schema.ts";

export interface ApiKeyRow {
  id: string;
  keyHash: string;
  partnerId: string | null;
  customerId: string | null;
  createdAt: Date;
}

export type NewApiKey = { id: string; keyHash: string } & (
  | { partnerId: string; customerId?: undefined }
  | { customerId: string; partnerId?: undefined }
);

/** Stores a key's hash and scope; undefined when the direct customer is not registered. */
export async function insertApiKey(db: Executor, input: NewApiKey): Promise<ApiKeyRow | undefined> {
  try {
    const [row] = await db
      .insert(apiKeys)
      .values({
        id: input.id,
        keyHash: input.keyHash,
        partnerId: input.partnerId ?? null,
        customerId: input.customerId ?? null,
      })
      .returning();
    return row;
  } catch (error) {
    if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) return undefined;
    throw error;
  }
}

export async function findApiKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  return row;
}

/** Revokes a key; false when no key has that ID. */
export async function deleteApiKey(db: Executor, id: string): Promise<boolean> {
  const deleted = await db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
  return deleted.length > 0;
}
