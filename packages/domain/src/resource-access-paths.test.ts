import { MAX_ACCESS_PATH_NODES, PATH_SERVICES } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { PathService, ResourceAccessPathsRequest } from "./resource-access-paths.ts";

describe("endpoint 12's body", () => {
  it("offers the engine's services and limit", () => {
    expect(PathService.options).toEqual([...PATH_SERVICES]);
    const body = (maxAccessPathNodes: number) => ({
      resourceIds: ["arn:aws:iam::123456789012:role/r"],
      principalAccessCapabilities: ["use-resource"],
      service: "STS",
      accessCapabilityOperator: "OR",
      maxAccessPathNodes,
    });
    expect(ResourceAccessPathsRequest.safeParse(body(MAX_ACCESS_PATH_NODES)).success).toBe(true);
    expect(ResourceAccessPathsRequest.safeParse(body(MAX_ACCESS_PATH_NODES + 1)).success).toBe(
      false,
    );
  });

  it("accepts ARNs of the supported partitions and Azure UUIDs, and defaults the limit to 10", () => {
    const parsed = ResourceAccessPathsRequest.parse({
      resourceIds: ["arn:aws-us-gov:s3:::bucket", "0b1f6471-1bf0-4dda-aec3-111122223333"],
      principalAccessCapabilities: ["read-data", "write-data"],
      service: "S3",
      accessCapabilityOperator: "AND",
    });
    expect(parsed.maxAccessPathNodes).toBe(10);
    for (const bad of ["arn:aws-cn:s3:::bucket", "bucket", "arn:aws::::x"])
      expect(
        ResourceAccessPathsRequest.safeParse({ ...parsed, resourceIds: [bad] }).success,
        bad,
      ).toBe(false);
  });
});
