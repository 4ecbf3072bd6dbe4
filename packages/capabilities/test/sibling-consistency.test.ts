import { describe, expect, it } from "vitest";
import {
  findSiblingViolations,
  formatSiblingViolations,
  plainNames,
  serviceFamily,
} from "../scripts/sibling-consistency.ts";
import { SIBLING_EXCEPTIONS } from "../scripts/sibling-exceptions.ts";
import type { AwsActionInfo } from "../src/aws-catalogue.ts";
import { findAwsAction } from "../src/aws-catalogue.ts";
import type { Capability } from "../src/capability.ts";

const action = (name: string, capabilities: Capability[]): AwsActionInfo => ({
  action: `example:${name}`,
  prefix: "example",
  service: "Example",
  accessLevel: "Write",
  capabilities,
  resourceTypes: [],
});

// The Put of a noun and its Get or Delete must agree on whether the noun is data.
describe("sibling consistency", () => {
  it("pairs Put with Get and Delete, not Get with Delete", () => {
    const found = findSiblingViolations([
      action("PutWidget", ["write-data"]),
      action("GetWidget", ["read-config"]),
      action("DeleteWidget", ["delete-data"]),
      action("GetTable", ["read-config"]),
      action("DeleteTable", ["administer-resource", "delete-data"]),
      action("DeleteGadget", ["delete-data"]),
      action("PutGadget", ["administer-resource"]),
    ]);
    expect(found.map((v) => v.other).sort()).toEqual(["example:GetWidget", "example:PutGadget"]);
  });

  it("pairs names that differ only by Batch, WithIAM, Async or Stream", () => {
    const found = findSiblingViolations([
      action("GetClusterCredentials", ["use-resource"]),
      action("GetClusterCredentialsWithIAM", ["administer-resource"]),
      action("GetQueryResults", ["read-data"]),
      action("GetQueryResultsStream", ["read-config"]),
      action("GetWidget", ["read-config"]),
      action("BatchGetWidgets", ["read-config"]),
      action("CreateStream", ["administer-resource"]),
    ]).filter((v) => v.check === "suffix");
    expect(found.map((v) => v.other).sort()).toEqual([
      "example:GetClusterCredentialsWithIAM",
      "example:GetQueryResultsStream",
    ]);
    expect(plainNames("BatchDeleteClusterSnapshots")).toEqual([
      "DeleteClusterSnapshots",
      "DeleteClusterSnapshot",
    ]);
    expect(plainNames("CreateStream")).toEqual([]);
  });

  it("compares one name across the services of a family", () => {
    const inService = (prefix: string, name: string, capabilities: Capability[]) => ({
      ...action(name, capabilities),
      action: `${prefix}:${name}`,
      prefix,
    });
    const found = findSiblingViolations([
      inService("widget", "ListBucket", ["read-data"]),
      inService("widget-outposts", "ListBucket", ["read-config"]),
      inService("widgetv2", "ListBucket", ["read-data"]),
      inService("gadget", "ListBucket", ["read-config"]),
    ]).filter((v) => v.check === "family");
    expect(found.map((v) => v.other)).toEqual(["widget-outposts:ListBucket"]);
    expect(serviceFamily("s3-object-lambda")).toBe("s3");
    expect(serviceFamily("wafv2")).toBe("waf");
    expect(serviceFamily("codeconnections")).toBe("codestar");
    expect(serviceFamily("aws-marketplace")).toBeUndefined();
  });

  it("has no unexplained violation and no stale exception", () => {
    const violations = findSiblingViolations();
    console.log(formatSiblingViolations(violations));
    expect(violations.filter((v) => !v.reason).map((v) => v.other)).toEqual([]);
    const flagged = new Set(violations.map((v) => v.other));
    expect(Object.keys(SIBLING_EXCEPTIONS).filter((a) => !flagged.has(a))).toEqual([]);
    for (const a of Object.keys(SIBLING_EXCEPTIONS)) expect(findAwsAction(a)?.action).toBe(a);
  });
});
