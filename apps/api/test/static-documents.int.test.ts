import { findAwsAction, listAwsActions } from "@sightline/capabilities";
import { CapabilityMap, IamPolicyDocument } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { ADMIN_KEY, createHarness } from "./harness.ts";

const h = await createHarness();

describe("capability maps (endpoints 1 to 3)", () => {
  it("serves the AWS map at /access-capabilities/aws and /access-capabilities", async () => {
    const partner = await h.newPartner();
    const aws = await h.call("GET", "/access-capabilities/aws", { key: partner.key });
    expect(aws.status).toBe(200);
    const map = CapabilityMap.parse(aws.json);
    expect(map.S3?.["read-data"]).toContain("s3:GetObject");
    const listed = Object.values(map).flatMap((caps) => Object.values(caps).flat());
    expect(new Set(listed).size).toBe(listAwsActions().length);
    const plain = await h.call("GET", "/access-capabilities", { key: partner.key });
    expect(plain.text).toBe(aws.text);
  });

  it("serves the Azure map", async () => {
    const azure = await h.call("GET", "/access-capabilities/azure", { key: ADMIN_KEY });
    expect(azure.status).toBe(200);
    const map = CapabilityMap.parse(azure.json);
    expect(Object.keys(map)).toContain("Microsoft.Storage");
  });

  it("answers If-None-Match with 304 and sends ETag and Cache-Control", async () => {
    const first = await h.call("GET", "/access-capabilities/aws", { key: ADMIN_KEY });
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("cache-control")).toContain("max-age");
    const again = await h.call("GET", "/access-capabilities/aws", {
      key: ADMIN_KEY,
      headers: { "if-none-match": `W/${etag}` },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const other = await h.call("GET", "/access-capabilities/aws", {
      key: ADMIN_KEY,
      headers: { "if-none-match": '"other"' },
    });
    expect(other.status).toBe(200);
  });

  it("requires an authenticated caller", async () => {
    expect((await h.call("GET", "/access-capabilities/azure")).status).toBe(401);
  });
});

describe("deny-IAM-admin policies (endpoints 4 and 5)", () => {
  it("returns the boundary: a Deny of IAM administration and an Allow of everything else", async () => {
    const res = await h.call("GET", "/policy/aws/permission-boundary/deny-iam-admin", {
      key: ADMIN_KEY,
    });
    expect(res.status).toBe(200);
    const doc = IamPolicyDocument.parse(res.json);
    expect(doc.Statement).toHaveLength(2);
    const [deny, allow] = doc.Statement;
    expect(deny).toMatchObject({ Sid: "DenyIAMAdministerResource", Effect: "Deny", Resource: "*" });
    expect(allow).toEqual({
      Sid: "AllowPermissionsGrantedByOtherPolicies",
      Effect: "Allow",
      Action: "*",
      Resource: "*",
    });
    const actions = deny?.Action as string[];
    expect(actions.length).toBeGreaterThan(95);
    for (const action of actions)
      expect(findAwsAction(action)?.capabilities).toContain("administer-resource");
    expect(res.text.replace(/\s/g, "").length).toBeLessThanOrEqual(6144);
  });

  it("returns the identity variant: the same Deny alone", async () => {
    const boundary = await h.call("GET", "/policy/aws/permission-boundary/deny-iam-admin", {
      key: ADMIN_KEY,
    });
    const identity = await h.call("GET", "/policy/aws/identity/deny-iam-admin", { key: ADMIN_KEY });
    expect(identity.status).toBe(200);
    const doc = IamPolicyDocument.parse(identity.json);
    expect(doc.Statement).toEqual([IamPolicyDocument.parse(boundary.json).Statement[0]]);
  });
});

describe("the domain's capability names", () => {
  it("are the capabilities package's", async () => {
    const { CAPABILITIES } = await import("@sightline/capabilities");
    const { AccessCapability } = await import("@sightline/domain");
    expect(AccessCapability.options).toEqual([...CAPABILITIES]);
  });
});
