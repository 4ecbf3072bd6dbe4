import { z } from "zod";
import { CustomerId } from "./identifiers.ts";
import { KmsKeyArn, PartnerDeliveryDestinations } from "./partner.ts";
import { FeatureFlags, SubscriptionPlanName } from "./partner-customer.ts";

/**
 * A direct customer's delivery settings (an extension mirroring the partner's): its own S3
 * inbox, encrypted with its own KMS key, and the report feature flags.
 */
export const DirectCustomerSettings = z
  .strictObject({
    customerId: CustomerId,
    awsEncryptionKeyId: KmsKeyArn.optional(),
    deliveryDestinations: PartnerDeliveryDestinations.optional(),
    featureFlags: FeatureFlags.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.deliveryDestinations?.DeliverToS3 && !value.awsEncryptionKeyId)
      ctx.addIssue({
        code: "custom",
        path: ["awsEncryptionKeyId"],
        message: "is required when deliveryDestinations.DeliverToS3 is configured",
      });
  });
export type DirectCustomerSettings = z.infer<typeof DirectCustomerSettings>;

/** What `GET /customer/{customerId}` answers: the settings and the plan the operator set. */
export const DirectCustomerView = z.object({
  customerId: CustomerId,
  name: z.string().optional(),
  subscriptionPlanName: SubscriptionPlanName,
  awsEncryptionKeyId: KmsKeyArn.optional(),
  deliveryDestinations: PartnerDeliveryDestinations,
  featureFlags: FeatureFlags,
});
export type DirectCustomerView = z.infer<typeof DirectCustomerView>;
