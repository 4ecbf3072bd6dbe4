import { z } from "zod";
import { CustomerId, freeText, PartnerId } from "./identifiers.ts";
import { KeySettings, Permission } from "./key-permissions.ts";
import { SubscriptionPlanName } from "./partner-customer.ts";

/**
 * Body of `POST /admin/api-keys`: exactly one scope, a partner or a direct customer; the key's
 * name, permissions (all four unless told) and expiry.
 */
export const CreateApiKeyRequest = z
  .strictObject({
    partnerId: PartnerId.optional(),
    customerId: CustomerId.optional(),
    ...KeySettings.shape,
  })
  .refine((body) => (body.partnerId === undefined) !== (body.customerId === undefined), {
    message: "must name exactly one of partnerId and customerId",
  })
  .transform(({ partnerId, customerId, ...settings }) =>
    partnerId !== undefined
      ? { partnerId, ...settings }
      : { customerId: customerId as string, ...settings },
  );
export type CreateApiKeyRequest = z.output<typeof CreateApiKeyRequest>;

export const ApiKeyId = z
  .string()
  .regex(/^key_[A-Za-z0-9_-]{16}$/, "must be an API key ID (key_…)");

/** The only response that ever carries the key itself. */
export const CreatedApiKey = z.object({
  id: ApiKeyId,
  key: z.string(),
  name: z.string(),
  scopes: z.array(Permission),
  expiresAt: z.iso.datetime().nullable(),
  partnerId: PartnerId.optional(),
  customerId: CustomerId.optional(),
  createdAt: z.iso.datetime(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** Body of `PUT /admin/customers/{customerId}`: the operator registers a customer and its plan. */
export const DirectCustomerConfig = z.strictObject({
  customerId: CustomerId,
  name: freeText(200).optional(),
  subscriptionPlanName: SubscriptionPlanName.optional(),
});
export type DirectCustomerConfig = z.infer<typeof DirectCustomerConfig>;

export const DirectCustomerRecord = z.object({
  customerId: CustomerId,
  name: z.string().optional(),
  subscriptionPlanName: SubscriptionPlanName,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DirectCustomerRecord = z.infer<typeof DirectCustomerRecord>;

/**
 * The authenticated client of Sightline's API, as its API key identifies it: the operator,
 * a partner, or a direct customer. (Not the engine's `RequestingPrincipal`, the AWS principal
 * of a request that the engine authorizes.)
 */
export type ApiClient =
  | { kind: "operator" }
  | ({ kind: "partner"; partnerId: string } & KeyHolder)
  | ({ kind: "customer"; customerId: string } & KeyHolder);

/**
 * A tenant's key, as its row says. A client built without `permissions` holds none: every route
 * that needs one refuses it.
 */
export interface KeyHolder {
  keyId: string;
  keyName?: string;
  permissions?: readonly Permission[];
  expiresAt?: Date | null;
}

/** `GET /whoami`'s tenant: whom the caller's key acts for. */
export const Caller = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("operator") }),
    z.object({ kind: z.literal("partner"), partnerId: z.string() }),
    z.object({ kind: z.literal("customer"), customerId: z.string() }),
  ])
  .meta({ id: "Caller" });
export type Caller = z.infer<typeof Caller>;

const KeyFacts = {
  id: ApiKeyId,
  name: z.string(),
  scopes: z.array(Permission),
  expiresAt: z.iso.datetime().nullable(),
};

/**
 * `GET /whoami`: the caller's tenant (`Caller`) and, for a tenant's key, its ID, name, scopes and
 * expiry (the console's first request: it hides what the key cannot do).
 */
export const WhoAmI = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("operator") }),
    z.object({ kind: z.literal("partner"), partnerId: z.string(), ...KeyFacts }),
    z.object({ kind: z.literal("customer"), customerId: z.string(), ...KeyFacts }),
  ])
  .meta({ id: "WhoAmI" });
export type WhoAmI = z.infer<typeof WhoAmI>;
