import { isPartition, parseArn } from "@sightline/engine/arn";
import { z } from "zod";
import { AccessCapability } from "./capability-map.ts";

const azureId = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** An ARN of a supported partition, or an Azure resource's UUID (section 4.10). */
export const ResourceId = z.string().refine((text) => {
  const arn = parseArn(text);
  return (
    (arn !== undefined && isPartition(arn.partition) && arn.service !== "") || azureId.test(text)
  );
}, "must be a resource ARN (arn:<partition>:<service>:…) or an Azure resource UUID");

/** Services through which paths are sought: STS per the contract; S3 and KMS beyond it. */
export const PathService = z.enum(["STS", "S3", "KMS"]);
export type PathService = z.infer<typeof PathService>;

/** Endpoint 12's body. */
export const ResourceAccessPathsRequest = z
  .strictObject({
    resourceIds: z
      .array(ResourceId)
      .min(1, "must name at least one resource")
      .max(100, "must name at most 100 resources"),
    principalAccessCapabilities: z
      .array(AccessCapability)
      .min(1, "must name at least one capability"),
    service: z.enum(PathService.options, {
      error: `must be one of ${PathService.options.join(", ")}`,
    }),
    accessCapabilityOperator: z.enum(["OR", "AND"]),
    maxAccessPathNodes: z
      .number()
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(15, "must be at most 15")
      .default(10),
  })
  .meta({ id: "ResourceAccessPathsRequest" });
export type ResourceAccessPathsRequest = z.infer<typeof ResourceAccessPathsRequest>;

/** One path (section 2.6). `conditional` is an extension: some edge holds only under conditions. */
export const ResourceAccessPath = z.object({
  nodes: z.array(z.string()),
  truncated: z.boolean(),
  cycle: z.boolean(),
  conditional: z.boolean().optional(),
});
export type ResourceAccessPath = z.infer<typeof ResourceAccessPath>;

export const ResourceAccessPathsResponse = z
  .object({
    resourceAccessPaths: z.record(
      z.string(),
      z.object({
        resourceType: z.string(),
        accessPaths: z.array(ResourceAccessPath),
        /** Extension: false when the list was cut at the ceiling of entries per resource. */
        complete: z.boolean().optional(),
      }),
    ),
  })
  .meta({ id: "ResourceAccessPathsResponse" });
export type ResourceAccessPathsResponse = z.infer<typeof ResourceAccessPathsResponse>;
