import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "./errors.ts";
import { apiKeys } from "./schema.ts";

export interface ApiKeyRow {
  id: string;
  keyHash: string;
  partnerId: string | null;
  customerId: string | null;
  name: string;
  permissions: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** A key's tenant: a partner or a registered direct customer. */
export type KeyTenant =
  | { partnerId: string; customerId?: undefined }
  | { customerId: string; partnerId?: undefined };

export type NewApiKey = {
  id: string;
  keyHash: string;
  name?: string | undefined;
  permissions?: readonly string[] | undefined;
  expiresAt?: Date | undefined;
} & KeyTenant;

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
        name: input.name ?? `key ${input.id}`,
        ...(input.permissions ? { permissions: [...input.permissions] } : {}),
        expiresAt: input.expiresAt ?? null,
      })
      .returning();
    return row;
  } catch (error) {
    if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) return undefined;
    throw error;
  }
}

/** The key with this hash, revoked or not (the caller tells a revoked key from an unknown one). */
export async function findApiKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  return row;
}

export async function getApiKey(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

/** A tenant's keys, oldest first, revoked ones included (their rows stay for the audit trail). */
export function listApiKeys(db: Executor, tenant: KeyTenant): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(
      tenant.partnerId !== undefined
        ? eq(apiKeys.partnerId, tenant.partnerId)
        : eq(apiKeys.customerId, tenant.customerId),
    )
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/**
 * Revokes a key (softly: the row stays, marked); the change feed tells every process. Returns
 * the row as it was, or undefined when no key has that ID (in that tenant, when one is given).
 * Revoking a revoked key changes nothing and returns it.
 */
export async function revokeApiKey(
  db: Executor,
  id: string,
  at: Date,
  tenant?: KeyTenant,
): Promise<ApiKeyRow | undefined> {
  const inTenant =
    tenant === undefined
      ? undefined
      : tenant.partnerId !== undefined
        ? eq(apiKeys.partnerId, tenant.partnerId)
        : eq(apiKeys.customerId, tenant.customerId);
  const before = (await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), inTenant))
    .for("update")) as ApiKeyRow[];
  const row = before[0];
  if (!row || row.revokedAt) return row;
  await db.update(apiKeys).set({ revokedAt: at, updatedAt: at }).where(eq(apiKeys.id, id));
  return row;
}

/** Records that a key was used, unless it was recorded since `notBefore` (one write a minute). */
export async function touchApiKey(db: Executor, id: string, at: Date, notBefore: Date) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(
      and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, notBefore))),
    );
}
