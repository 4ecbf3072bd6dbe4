import type { PartnerConfig, PartnerRef } from "@sightline/domain";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { partners } from "./schema.ts";

/** What storing a partner's configuration did. */
export type UpsertPartnerResult =
  | { kind: "stored"; partner: PartnerRef }
  /** `configs.oemIntegrationEnabled: true` without the operator's grant: nothing stored. */
  | { kind: "oem-not-granted" };

/**
 * Creates or replaces a partner's configuration (PUT semantics: absent fields are cleared).
 * Claiming the OEM integration updates only a partner the operator granted, in one statement,
 * so that a revocation cannot slip between the check and the write.
 */
export async function upsertPartner(
  db: Executor,
  input: PartnerConfig,
): Promise<UpsertPartnerResult> {
  const values = {
    partnerId: input.partnerId,
    configs: input.configs ?? {},
    awsEncryptionKeyId: input.awsEncryptionKeyId ?? null,
    deliveryDestinations: input.deliveryDestinations ?? {},
  };
  const set = {
    configs: values.configs,
    awsEncryptionKeyId: values.awsEncryptionKeyId,
    deliveryDestinations: values.deliveryDestinations,
    updatedAt: sql`now()`,
  };
  const stored = { kind: "stored", partner: { partnerId: input.partnerId } } as const;
  if (input.configs?.oemIntegrationEnabled === true) {
    const updated = await db
      .update(partners)
      .set(set)
      .where(and(eq(partners.partnerId, input.partnerId), isNotNull(partners.oemGrantedAt)))
      .returning({ partnerId: partners.partnerId });
    return updated.length > 0 ? stored : { kind: "oem-not-granted" };
  }
  await db.insert(partners).values(values).onConflictDoUpdate({ target: partners.partnerId, set });
  return stored;
}

export async function getPartner(
  db: Executor,
  partnerId: string,
): Promise<PartnerConfig | undefined> {
  const [row] = await db.select().from(partners).where(eq(partners.partnerId, partnerId));
  if (!row) return undefined;
  return {
    partnerId: row.partnerId,
    configs: row.configs as PartnerConfig["configs"],
    ...(row.awsEncryptionKeyId ? { awsEncryptionKeyId: row.awsEncryptionKeyId } : {}),
    deliveryDestinations: row.deliveryDestinations as PartnerConfig["deliveryDestinations"],
  };
}
