import { eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { oemRevocations, partners } from "./schema.ts";

/** Whether the operator made a partner an OEM integration, and since when. */
export interface OemGrant {
  partnerId: string;
  oemIntegrationEnabled: boolean;
  /** When the operator first granted it; absent when it is not granted. */
  grantedAt?: Date;
}

const grantOf = (row: { partnerId: string; grantedAt: Date | null }): OemGrant => ({
  partnerId: row.partnerId,
  oemIntegrationEnabled: row.grantedAt !== null,
  ...(row.grantedAt ? { grantedAt: row.grantedAt } : {}),
});

/**
 * The operator grants (a second grant keeps the first time) or revokes; revoking also drops
 * the partner's own `configs.oemIntegrationEnabled`. Undefined: the partner is not configured.
 */
export async function setOemGrant(
  db: Executor,
  partnerId: string,
  enabled: boolean,
): Promise<OemGrant | undefined> {
  const [row] = await db
    .update(partners)
    .set(
      enabled
        ? { oemGrantedAt: sql`coalesce(${partners.oemGrantedAt}, now())`, updatedAt: sql`now()` }
        : {
            oemGrantedAt: null,
            configs: sql`${partners.configs} - 'oemIntegrationEnabled'`,
            updatedAt: sql`now()`,
          },
    )
    .where(eq(partners.partnerId, partnerId))
    .returning({ partnerId: partners.partnerId, grantedAt: partners.oemGrantedAt });
  return row && grantOf(row);
}

/** The partner's grant; undefined when the partner is not configured. */
export async function getOemGrant(db: Executor, partnerId: string): Promise<OemGrant | undefined> {
  const [row] = await db
    .select({ partnerId: partners.partnerId, grantedAt: partners.oemGrantedAt })
    .from(partners)
    .where(eq(partners.partnerId, partnerId));
  return row && grantOf(row);
}

/** A flag the partner had set itself, cleared by migration 0003, with its `cvs` accounts then. */
export interface OemRevocation {
  partnerId: string;
  /** `<partnerCustomerId>/<accountId>`. */
  cvsAccounts: string[];
  revokedAt: Date;
}

/** The revocations the operator has not answered with a grant yet, by partner. */
export async function listOemRevocationsPending(db: Executor): Promise<OemRevocation[]> {
  return db
    .select({
      partnerId: oemRevocations.partnerId,
      cvsAccounts: oemRevocations.cvsAccounts,
      revokedAt: oemRevocations.revokedAt,
    })
    .from(oemRevocations)
    .leftJoin(partners, eq(partners.partnerId, oemRevocations.partnerId))
    .where(isNull(partners.oemGrantedAt))
    .orderBy(oemRevocations.partnerId);
}
