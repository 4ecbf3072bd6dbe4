import { isPartition, parseArn } from "@sightline/engine/arn";
import { z } from "zod";
import { AwsAccountId, PartnerId } from "./identifiers.ts";

/**
 * Keys of the partner `configs` dictionary (the OEM integration settings). Unknown keys are
 * rejected so that a typo cannot silently disable an integration.
 */
export const PartnerConfigs = z.strictObject({
  /**
   * The partner's own view of its OEM integration. `true` is accepted only once the operator has
   * granted it (`PUT /admin/partners/{partnerId}/oem-integration`): only that grant opens `cvs`.
   */
  oemIntegrationEnabled: z.boolean().optional(),
});
export type PartnerConfigs = z.infer<typeof PartnerConfigs>;

/** S3 bucket naming rules (general purpose buckets). */
export const S3BucketName = z
  .string()
  .min(3, "must be 3 to 63 characters")
  .max(63, "must be 3 to 63 characters")
  .regex(
    /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
    "must use lowercase letters, digits, '.' and '-', and begin and end with a letter or digit",
  )
  .refine((name) => !/\.\.|\.-|-\./.test(name), "must not contain '..', '.-' or '-.'")
  .refine((name) => !/^\d+\.\d+\.\d+\.\d+$/.test(name), "must not be formatted as an IP address");

export const DeliverToS3 = z.strictObject({
  bucketName: S3BucketName,
  /**
   * An extension: the AWS account that owns the bucket. Sent as `ExpectedBucketOwner` with
   * every request, so that a bucket of the same name in another account is never written.
   */
  expectedBucketOwner: AwsAccountId.optional().describe(
    "the 12-digit AWS account that owns the bucket; every request then requires it as owner",
  ),
});
export type DeliverToS3 = z.infer<typeof DeliverToS3>;

export const PartnerDeliveryDestinations = z.strictObject({ DeliverToS3: DeliverToS3.optional() });
export type PartnerDeliveryDestinations = z.infer<typeof PartnerDeliveryDestinations>;

const kmsResource = /^(key\/(mrk-)?[0-9a-fA-F-]{32,36}|alias\/[A-Za-z0-9/_-]{1,250})$/;

/** A KMS key or alias ARN in one of the supported partitions. */
export const KmsKeyArn = z.string().refine((text) => {
  const arn = parseArn(text);
  return (
    arn !== undefined &&
    isPartition(arn.partition) &&
    arn.service === "kms" &&
    /^[a-z0-9-]+$/.test(arn.region) &&
    /^\d{12}$/.test(arn.accountId) &&
    kmsResource.test(arn.resource)
  );
}, "must be a KMS key or alias ARN, e.g. arn:aws:kms:us-east-1:123456789012:key/<key id>");

/** Partner configuration (section 2.2); the request body of endpoint 6 and response of 7. */
export const PartnerConfig = z
  .strictObject({
    partnerId: PartnerId,
    configs: PartnerConfigs.optional(),
    awsEncryptionKeyId: KmsKeyArn.optional(),
    deliveryDestinations: PartnerDeliveryDestinations.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.deliveryDestinations?.DeliverToS3 && !value.awsEncryptionKeyId) {
      ctx.addIssue({
        code: "custom",
        path: ["awsEncryptionKeyId"],
        message: "is required when deliveryDestinations.DeliverToS3 is configured",
      });
    }
  });
export type PartnerConfig = z.infer<typeof PartnerConfig>;

export const PartnerRef = z.object({ partnerId: PartnerId });
export type PartnerRef = z.infer<typeof PartnerRef>;

export const PartnerPath = z.object({ partnerId: PartnerId });
