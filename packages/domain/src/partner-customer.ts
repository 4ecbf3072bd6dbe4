import { z } from "zod";
import { MappedCustomerId, PartnerCustomerId, PartnerId } from "./identifiers.ts";

export const SubscriptionPlanName = z.enum(["Starter", "Team", "Enterprise"]);
export type SubscriptionPlanName = z.infer<typeof SubscriptionPlanName>;

export const PartnerCustomerDeliveryDestination = z.strictObject({
  methodName: z.enum(["DeliverToPartner"]),
});

export const FeatureFlags = z.strictObject({
  latestReportEnabled: z.boolean().optional(),
  hiveEnabled: z.boolean().optional(),
});
export type FeatureFlags = z.infer<typeof FeatureFlags>;

/** Partner customer configuration (section 2.3); the request body of endpoint 8. */
export const PartnerCustomerConfig = z.strictObject({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
  subscriptionPlanName: SubscriptionPlanName,
  deliveryDestinations: z
    .array(PartnerCustomerDeliveryDestination)
    .min(1, "must name at least one delivery method")
    .refine(
      (list) => new Set(list.map((d) => d.methodName)).size === list.length,
      "must not name a delivery method twice",
    ),
  featureFlags: FeatureFlags.optional(),
});
export type PartnerCustomerConfig = z.infer<typeof PartnerCustomerConfig>;

export const PartnerCustomerRef = z.object({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
  customerId: MappedCustomerId,
});
export type PartnerCustomerRef = z.infer<typeof PartnerCustomerRef>;

export const PartnerCustomerPath = z.object({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
});

/** `GET /partner/{partnerId}/customer`: the partner's customers (an extension of the contract). */
export const PartnerCustomerList = z
  .object({
    customers: z.array(
      z.object({
        partnerCustomerId: z.string(),
        customerId: z.string().describe("The customer ID Sightline gave it"),
        subscriptionPlanName: z.string(),
      }),
    ),
  })
  .meta({ id: "PartnerCustomerList" });
export type PartnerCustomerList = z.infer<typeof PartnerCustomerList>;
