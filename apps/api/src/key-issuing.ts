import { type ApiKeyRow, type Executor, insertApiKey, type KeyTenant } from "@sightline/db";
import { type ApiKeyRecord, invalidInput, PERMISSIONS, type Permission } from "@sightline/domain";
import { generateApiKey, hashKey } from "./keys.ts";

const DAY_MS = 86_400_000;

/**
 * `SIGHTLINE_KEY_MAX_DAYS`: unset, `expiresAt` is optional and unbounded; set, a new key needs
 * one, in the future and at most that many days ahead. Throws 400 naming the rule.
 */
export function checkKeyExpiry(
  expiresAt: Date | undefined,
  maxDays: number | undefined,
  now: Date,
) {
  const refuse = (message: string) => invalidInput("body", [{ path: "expiresAt", message }]);
  if (expiresAt !== undefined && expiresAt.getTime() <= now.getTime())
    throw refuse("must be in the future");
  if (maxDays === undefined) return;
  if (expiresAt === undefined)
    throw refuse(`is required: SIGHTLINE_KEY_MAX_DAYS allows keys of at most ${maxDays} days`);
  if (expiresAt.getTime() > now.getTime() + maxDays * DAY_MS)
    throw refuse(`must be at most ${maxDays} days ahead (SIGHTLINE_KEY_MAX_DAYS)`);
}

export interface IssuedKey {
  row: ApiKeyRow;
  /** The secret: shown in the creating response only. */
  key: string;
}

/** Makes a key; undefined when its direct customer is not registered. */
export async function issueApiKey(
  db: Executor,
  tenant: KeyTenant,
  settings: {
    name?: string | undefined;
    scopes?: readonly Permission[];
    expiresAt?: Date | undefined;
  },
): Promise<IssuedKey | undefined> {
  const { id, key } = generateApiKey();
  const row = await insertApiKey(db, {
    id,
    keyHash: hashKey(key),
    ...tenant,
    name: settings.name,
    permissions: settings.scopes ?? PERMISSIONS,
    expiresAt: settings.expiresAt,
  });
  return row && { row, key };
}

/** A key as lists and audit events show it: never the secret, nor its hash. */
export function keyRecordOf(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    scopes: row.permissions as Permission[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The audit event's fields of a created key: its settings in clear, the secret only as changed. */
export function createdKeyChanges(row: ApiKeyRow) {
  return {
    keyId: { old: null, new: row.id },
    name: { old: null, new: row.name },
    scopes: { old: null, new: row.permissions },
    expiresAt: { old: null, new: row.expiresAt?.toISOString() ?? null },
    key: "changed" as const,
  };
}
