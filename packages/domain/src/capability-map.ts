import { z } from "zod";

/** The six access capabilities of section 2.7. */
export const AccessCapability = z.enum([
  "administer-resource",
  "read-config",
  "use-resource",
  "read-data",
  "write-data",
  "delete-data",
]);
export type AccessCapability = z.infer<typeof AccessCapability>;

/** Service name → capability → sorted permission names (endpoints 1 to 3). */
export const CapabilityMap = z.record(
  z.string(),
  z.partialRecord(AccessCapability, z.array(z.string())),
);
export type CapabilityMap = z.infer<typeof CapabilityMap>;

const OneOrMany = z.union([z.string(), z.array(z.string())]);

/** An IAM policy document as the deny-IAM-admin endpoints return it (endpoints 4 and 5). */
export const IamPolicyDocument = z.object({
  Version: z.literal("2012-10-17"),
  Statement: z.array(
    z.object({
      Sid: z.string().optional(),
      Effect: z.enum(["Allow", "Deny"]),
      Action: OneOrMany.optional(),
      NotAction: OneOrMany.optional(),
      Resource: OneOrMany.optional(),
      NotResource: OneOrMany.optional(),
    }),
  ),
});
export type IamPolicyDocument = z.infer<typeof IamPolicyDocument>;
