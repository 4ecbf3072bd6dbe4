import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { insertExecution, insertSnapshot } from "@sightline/db";
import { ResourceAccessPathsResponse } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { storeCustomerSnapshots } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();

const A = "111111111111";
const B = "222222222222";
const doc = (statement: object) => ({ Version: "2012-10-17", Statement: [statement] });
const role = (account: string, name: string, trust: object, allows: string[] = []) => ({
  RoleName: name,
  RoleId: `AROA${randomBytes(8).toString("hex").toUpperCase()}`,
  Arn: `arn:aws:iam::${account}:role/${name}`,
  Path: "/",
  AssumeRolePolicyDocument: doc({ Effect: "Allow", Principal: trust, Action: "sts:AssumeRole" }),
  RolePolicyList: allows.length
    ? [
        {
          PolicyName: "assume",
          PolicyDocument: doc({ Effect: "Allow", Action: "sts:AssumeRole", Resource: allows }),
        },
      ]
    : [],
  AttachedManagedPolicies: [],
  Tags: [],
});
const target = `arn:aws:iam::${A}:role/target`;
const hop = `arn:aws:iam::${B}:role/hop`;
const alice = `arn:aws:iam::${B}:user/alice`;
/** A's `target` trusts B's `hop`; `hop` trusts alice, whose policy lets her assume it. */
const accounts = {
  [A]: {
    UserDetailList: [],
    GroupDetailList: [],
    Policies: [],
    RoleDetailList: [role(A, "target", { AWS: hop })],
  },
  [B]: {
    UserDetailList: [
      {
        UserName: "alice",
        UserId: "AIDAALICE0000000000",
        Arn: alice,
        Path: "/",
        GroupList: [],
        AttachedManagedPolicies: [],
        UserPolicyList: [
          {
            PolicyName: "assume",
            PolicyDocument: doc({ Effect: "Allow", Action: "sts:AssumeRole", Resource: hop }),
          },
        ],
      },
    ],
    GroupDetailList: [],
    Policies: [],
    RoleDetailList: [role(B, "hop", { AWS: alice }, [target])],
  },
};

/** A partner customer monitoring A and B, with a stored snapshot of each (as a worker leaves). */
async function analysedCustomer() {
  const pc = await h.newPartnerCustomer(await h.newPartner());
  await storeCustomerSnapshots(h, pc, accounts);
  return pc;
}

const query = (resourceIds: string[], extra: object = {}) => ({
  resourceIds,
  principalAccessCapabilities: ["use-resource"],
  service: "STS",
  accessCapabilityOperator: "OR",
  ...extra,
});

describe("resource access paths (endpoint 12)", () => {
  it("answers every starting point of every chain across the customer's accounts", async () => {
    const pc = await analysedCustomer();
    const path = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${A}/resource-access-paths`;
    const res = await h.call("POST", path, { key: pc.key, body: query([target]) });
    expect(res.status).toBe(200);
    const answer = ResourceAccessPathsResponse.parse(res.json).resourceAccessPaths[target];
    expect(answer?.resourceType).toBe("IAMRole");
    const entry = { truncated: false, cycle: false, conditional: false };
    expect(answer).toEqual({
      resourceType: "IAMRole",
      accessPaths: [
        { nodes: [hop], ...entry },
        { nodes: [hop, alice], ...entry },
      ],
      complete: true,
    });
    const short = await h.call("POST", path, {
      key: pc.key,
      body: query([target], { maxAccessPathNodes: 1 }),
    });
    const limited = ResourceAccessPathsResponse.parse(short.json).resourceAccessPaths[target];
    expect(limited?.accessPaths).toContainEqual(
      expect.objectContaining({ nodes: [hop], truncated: true }),
    );
  });

  it("answers 400 for an Azure subscription, naming the services paths are defined for", async () => {
    const pc = await analysedCustomer();
    const subscription = "0b1f6471-1bf0-4dda-aec3-111122223333";
    // An analysed Azure subscription of the same customer takes no part in AWS's paths.
    const executionId = `ondemand-${pc.customerId}-${subscription}-2026-01-01_AZ01`;
    await insertExecution(
      h.deps.db,
      {
        execution: {
          executionId,
          kind: "ondemand",
          customerId: pc.customerId,
          accountId: subscription,
          provider: "azure",
          authMethod: "config",
        },
      },
      async () => {},
    );
    await insertSnapshot(h.deps.db, {
      executionId,
      customerId: pc.customerId,
      accountId: subscription,
      collectedAt: new Date(),
      data: gzipSync(
        JSON.stringify({
          snapshot: { subscriptionId: subscription, roleDefinitions: [], roleAssignments: [] },
          metadata: { provider: "azure" },
          warnings: [],
        }),
      ),
    });
    const base = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`;
    const azure = await h.call("POST", `${base}/${subscription}/resource-access-paths`, {
      key: pc.key,
      body: query(["0b1f6471-1bf0-4dda-aec3-444455556666"]),
    });
    expect(azure.status).toBe(400);
    expect(azure.json.message).toContain("accountId is an Azure subscription");
    expect(azure.json.message).toContain("STS, S3 and KMS");
    const aws = await h.call("POST", `${base}/${A}/resource-access-paths`, {
      key: pc.key,
      body: query([target]),
    });
    expect(aws.status).toBe(200);
    expect(
      ResourceAccessPathsResponse.parse(aws.json).resourceAccessPaths[target]?.accessPaths,
    ).toHaveLength(2);
  });

  it("answers 409 for an account never analysed, 404 for an unknown customer", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const base = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${A}/resource-access-paths`;
    const never = await h.call("POST", base, { key: pc.key, body: query([target]) });
    expect(never.status).toBe(409);
    expect(never.json.message).toContain("trigger an analysis");
    const unknown = await h.call("POST", base.replace(pc.partnerCustomerId, "nobody-here"), {
      key: pc.key,
      body: query([target]),
    });
    expect(unknown.status).toBe(404);
  });

  it.each([
    ["no resource", { resourceIds: [] }, "resourceIds"],
    ["a malformed ARN", { resourceIds: ["arn:aws"] }, "resourceIds.0"],
    [
      "an unknown capability",
      { principalAccessCapabilities: ["read-everything"] },
      "principalAccessCapabilities.0",
    ],
    ["an unsupported service", { service: "EC2" }, "service"],
    ["an unknown operator", { accessCapabilityOperator: "XOR" }, "accessCapabilityOperator"],
    ["too many nodes", { maxAccessPathNodes: 16 }, "maxAccessPathNodes"],
    ["too few nodes", { maxAccessPathNodes: 0 }, "maxAccessPathNodes"],
    ["a fractional limit", { maxAccessPathNodes: 2.5 }, "maxAccessPathNodes"],
  ])("rejects %s with 400 naming %s", async (_name, change, field) => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const res = await h.call(
      "POST",
      `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${A}/resource-access-paths`,
      { key: pc.key, body: { ...query([target]), ...change } },
    );
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field })]),
    );
  });
});
