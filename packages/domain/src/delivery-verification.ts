import { z } from "zod";
import { AwsAccountId } from "./identifiers.ts";

/** Where an owner puts its token in its bucket: the key is named after the owner. */
export const deliveryVerificationKey = (ownerId: string): string =>
  `sightline-delivery-verification/${ownerId}.txt`;

/**
 * The proof that a partner or direct customer controls the bucket it configured
 * (`deliveryDestinations.DeliverToS3`): an extension of the contract. Sightline reads the token
 * back from `s3://bucketName/key` before the first delivery, and again whenever the bucket or
 * its expected owner changes; an unproven destination receives nothing.
 */
export const DeliveryVerification = z
  .object({
    bucketName: z.string(),
    expectedBucketOwner: AwsAccountId.optional(),
    key: z.string().describe("the object key to put the token at, in that bucket"),
    token: z.string().describe("the object's whole content (a trailing newline is ignored)"),
    status: z.enum(["unproven", "proven"]),
    provenAt: z.iso.datetime().optional().describe("when Sightline read the token back"),
  })
  .meta({ id: "DeliveryVerification" });
export type DeliveryVerification = z.infer<typeof DeliveryVerification>;
