import type {
  PrincipalAccessSummary,
  PrincipalRow,
  ResourceAccessSummary,
} from "@sightline/engine";
import { describe, expect, it } from "vitest";
import {
  buildResourceAccessRow,
  buildResourceRow,
  createReportContext,
  nameFromArn,
  principalAccessReportRows,
} from "../src/index.ts";
import { ANALYSIS_TIME } from "./sample-rows.ts";

const alice: PrincipalRow = {
  principalArn: "arn:aws:iam::111122223333:user/alice",
  principalName: "alice",
  principalType: "IAMUser",
  accountId: "111122223333",
  iamAdmin: "no",
  groupArns: [],
  tags: { Team: "data" },
};
const deployer: PrincipalRow = {
  ...alice,
  principalArn: "arn:aws:iam::111122223333:role/ci/deployer",
  principalName: "deployer",
  principalType: "IAMRole",
  tags: { Environment: "prod" },
};
const context = createReportContext({
  analysisTime: ANALYSIS_TIME,
  principals: [alice, deployer],
  resourceMetadata: new Map([
    ["arn:aws:s3:::reports", { tags: { confidentiality: "high", OWNER: "finance", owner: "z" } }],
    ["arn:aws:kms:us-east-1:111122223333:key/1234", { name: "alias/reports" }],
  ]),
});
const summary = (resourceArn: string): PrincipalAccessSummary => ({
  principalArn: alice.principalArn,
  principalName: "alice",
  principalType: "IAMUser",
  service: "S3",
  capability: "read-data",
  resourceArn,
  conditional: true,
  exceptResources: ["arn:aws:s3:::secret/*"],
  grantedBy: [{ policyType: "inline", policyName: "reports-read", sids: ["Read"] }],
});

describe("principalAccessReportRows", () => {
  it("writes the grant's pattern when no expansion is given, and blank for service-wide", () => {
    const rows = [
      ...principalAccessReportRows([summary("arn:aws:s3:::rep*"), summary("")], context),
    ];
    expect(rows.map((r) => [r.resource_arn, r.resource_pattern])).toEqual([
      ["arn:aws:s3:::rep*", "arn:aws:s3:::rep*"],
      ["", ""],
    ]);
    expect(rows[0]).toMatchObject({
      analysis_time: ANALYSIS_TIME,
      principal_tags: { Team: "data" },
      service_name: "S3",
      access_capability: "read-data",
      conditional: true,
      except_resources: ["arn:aws:s3:::secret/*"],
      granted_by: [{ policyType: "inline", policyName: "reports-read", sids: ["Read"] }],
      except_resources_this_scope_only: [],
    });
  });

  it("carries the scopes cut at that scope only in a list of their own", () => {
    const rg = "/subscriptions/s/resourceGroups/rg-data";
    const [row] = principalAccessReportRows(
      [{ ...summary(""), exceptResources: [`${rg}/x`], exceptResourcesThisScopeOnly: [rg] }],
      context,
    );
    expect(row?.except_resources).toEqual([`${rg}/x`]);
    expect(row?.except_resources_this_scope_only).toEqual([rg]);
  });

  it("writes a row per covered resource, and the pattern when it covers none", () => {
    const expand = (pattern: string) =>
      pattern === "arn:aws:s3:::rep*" ? ["arn:aws:s3:::reports", "arn:aws:s3:::reports-eu"] : [];
    const rows = [
      ...principalAccessReportRows(
        [summary("arn:aws:s3:::rep*"), summary("arn:aws:s3:::x/*"), summary("")],
        context,
        {
          expandResourcePattern: expand,
        },
      ),
    ];
    expect(rows.map((r) => [r.resource_arn, r.resource_pattern])).toEqual([
      ["arn:aws:s3:::reports", "arn:aws:s3:::rep*"],
      ["arn:aws:s3:::reports-eu", "arn:aws:s3:::rep*"],
      ["arn:aws:s3:::x/*", "arn:aws:s3:::x/*"],
      ["", ""],
    ]);
  });
});

describe("resource rows", () => {
  it("take names and tags from collected metadata, else from the analysed role, else the ARN", () => {
    const bucket = buildResourceRow(
      {
        resourceArn: "arn:aws:s3:::reports",
        resourceType: "S3Bucket",
        service: "S3",
        accountId: undefined,
        allowsAnyPrincipal: true,
      },
      context,
    );
    expect(bucket).toMatchObject({
      resource_name: "reports",
      resource_tag_confidentiality: "high",
      resource_tag_owner: "finance",
      resource_tag_business_unit: "",
      resource_tags: { confidentiality: "high", OWNER: "finance", owner: "z" },
      resource_account_id: "",
      service_name: "S3",
      allows_any_principal: true,
    });
    const key = buildResourceRow(
      {
        resourceArn: "arn:aws:kms:us-east-1:111122223333:key/1234",
        resourceType: "KMSKey",
        service: "KMS",
        accountId: "111122223333",
        allowsAnyPrincipal: false,
      },
      context,
    );
    const role = buildResourceRow(
      {
        resourceArn: deployer.principalArn,
        resourceType: "IAMRole",
        service: "STS",
        accountId: "111122223333",
        allowsAnyPrincipal: false,
      },
      context,
    );
    expect(role).toMatchObject({
      resource_name: "deployer",
      resource_tags: { Environment: "prod" },
      resource_tag_environment: "prod",
    });
    expect(key).toMatchObject({
      resource_name: "alias/reports",
      resource_tags: {},
      resource_account_id: "111122223333",
    });
  });

  it("name analysed principals by their name and others by their ARN or identifier", () => {
    const access = (principal: string, principalType: ResourceAccessSummary["principalType"]) =>
      buildResourceAccessRow(
        {
          resourceArn: "arn:aws:s3:::reports",
          resourceType: "S3Bucket",
          service: "S3",
          capability: "read-data",
          principal,
          principalType,
          inAccount: false,
          conditional: false,
          grantedBy: [{ policyType: "resource", policyArn: "arn:aws:s3:::reports", sids: ["Out"] }],
        },
        context,
      );
    expect(access(alice.principalArn, "IAMUser")).toEqual({
      analysis_time: ANALYSIS_TIME,
      service_name: "S3",
      resource_name: "reports",
      resource_arn: "arn:aws:s3:::reports",
      access_capability: "read-data",
      principal_type: "IAMUser",
      principal_name: "alice",
      principal_arn: alice.principalArn,
      resource_tag_confidentiality: "high",
      resource_type: "S3Bucket",
      principal_in_account: false,
      conditional: false,
      granted_by: [{ policyType: "resource", policyArn: "arn:aws:s3:::reports", sids: ["Out"] }],
    });
    expect(
      access("arn:aws:iam::444455556666:role/path/auditor", "ExternalPrincipal").principal_name,
    ).toBe("auditor");
    expect(access("444455556666", "Account").principal_name).toBe("444455556666");
    expect(access("cloudtrail.amazonaws.com", "Service").principal_name).toBe(
      "cloudtrail.amazonaws.com",
    );
  });

  it("nameFromArn takes the last element of the resource", () => {
    expect(nameFromArn("arn:aws:lambda:us-east-1:111122223333:function:rotate")).toBe("rotate");
    expect(nameFromArn("arn:aws:iam::111122223333:root")).toBe("root");
    expect(nameFromArn("*")).toBe("*");
  });
});
