import { z } from "zod";
import { freeText } from "./identifiers.ts";

/**
 * What an API key may do ("scopes" in the API; `permissions` in code, where "scope" is the
 * tenant a key acts for). Each route declares the one it needs.
 */
export const PERMISSIONS = ["read", "trigger", "configure", "keys"] as const;
export const Permission = z.enum(PERMISSIONS).meta({ id: "Permission" });
export type Permission = z.infer<typeof Permission>;

/** A key's name, permissions and expiry, as its creator gives them. */
export const KeySettings = z.object({
  name: freeText(100).optional(),
  scopes: z
    .array(Permission)
    .min(1, "must name at least one of read, trigger, configure, keys")
    .transform((scopes) => PERMISSIONS.filter((p) => scopes.includes(p)))
    .optional(),
  expiresAt: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
    .transform((at) => new Date(at))
    .optional(),
});
export type KeySettings = z.output<typeof KeySettings>;

/** Body of `POST /partner/{partnerId}/api-keys` (and the customer's): a tenant makes its own key. */
export const CreateTenantKeyRequest = z.strictObject({
  name: freeText(100),
  scopes: z
    .array(Permission)
    .min(1, "must name at least one of read, trigger, configure, keys")
    .transform((scopes) => PERMISSIONS.filter((p) => scopes.includes(p))),
  expiresAt: KeySettings.shape.expiresAt,
});
export type CreateTenantKeyRequest = z.output<typeof CreateTenantKeyRequest>;

/** A key as a list shows it: never its secret, nor its hash. */
export const ApiKeyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(Permission),
    expiresAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKeyRecord" });
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

/**
 * Whether a key may be made with these settings by a key with `creator`'s: its permissions a
 * subset, its expiry no later (a creator that expires cannot make one that does not). Returns
 * the rule broken, or undefined.
 */
export function exceedsCreator(
  creator: { permissions: readonly Permission[]; expiresAt: Date | null },
  wanted: { scopes: readonly Permission[]; expiresAt?: Date | undefined },
): string | undefined {
  const extra = wanted.scopes.filter((p) => !creator.permissions.includes(p));
  if (extra.length > 0)
    return `scopes: a key cannot grant ${extra.join(", ")}, which it does not have itself`;
  if (creator.expiresAt) {
    if (!wanted.expiresAt)
      return `expiresAt: required, and no later than this key's own expiry (${creator.expiresAt.toISOString()})`;
    if (wanted.expiresAt > creator.expiresAt)
      return `expiresAt: must be no later than this key's own expiry (${creator.expiresAt.toISOString()})`;
  }
  return undefined;
}
