import type { PartnerConfig, PartnerRef } from "@sightline/domain";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { partners } from "./schema.ts";

/** Creates or replaces a partner's configuration (PUT semantics: absent fields are cleared). */
export async function upsertPartner(db: Executor, input: PartnerConfig): Promise<PartnerRef> {
  const values = {
    partnerId: input.partnerId,
    configs: input.configs ?? {},
    awsEncryptionKeyId: input.awsEncryptionKeyId ?? null,
    deliveryDestinations: input.deliveryDestinations ?? {},
  };
  await db
    .insert(partners)
    .values(values)
    .onConflictDoUpdate({
      target: partners.partnerId,
      set: {
        configs: values.configs,
        awsEncryptionKeyId: values.awsEncryptionKeyId,
        deliveryDestinations: values.deliveryDestinations,
        updatedAt: sql`now()`,
      },
    });
  return { partnerId: input.partnerId };
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
