import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../src/routes/index.ts";
import { awsAccount, createHarness } from "./harness.ts";

const h = await createHarness();

/** The partner whose data others try to reach, and one account under it. */
let victim: { partnerId: string; key: string; partnerCustomerId: string; customerId: string };
let intruder: { partnerId: string; key: string };
let customerKey: string;

beforeAll(async () => {
  victim = await h.newPartnerCustomer(await h.newPartner(), "victim-tenant");
  const put = await h.call(
    "PUT",
    `/partner/${victim.partnerId}/customer/victim-tenant/account/123456789012`,
    {
      key: victim.key,
      body: awsAccount("123456789012", victim.partnerId, "victim-tenant"),
    },
  );
  expect(put.status).toBe(200);
  intruder = await h.newPartner();
  const customerId = `C${Math.floor(10000 + Math.random() * 89999)}`;
  expect((await h.admin("PUT", `/admin/customers/${customerId}`, { customerId })).status).toBe(200);
  customerKey = (await h.admin("POST", "/admin/api-keys", { customerId })).json.key as string;
});

/** Path values under the victim; the customer (6 digits) is never the 5-digit customerKey's. */
const values = () => ({
  partnerId: victim.partnerId,
  partnerCustomerId: "victim-tenant",
  accountId: "123456789012",
  customerId: "C123456",
  executionId: `ondemand-${victim.customerId}-123456789012-2026-01-31_AB12`,
  id: "key_AAAAAAAAAAAAAAAA",
  destinationId: "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab",
});
const fill = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: keyof ReturnType<typeof values>) => values()[name]);

/** A valid body for each route that takes one, so that only the caller's identity is wrong. */
function sampleBody(operationId: string): unknown {
  const v = values();
  switch (operationId) {
    case "putPartner":
      return { partnerId: v.partnerId };
    case "putPartnerCustomer":
      return {
        ...v,
        subscriptionPlanName: "Starter",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
        accountId: undefined,
        customerId: undefined,
        id: undefined,
      };
    case "putMonitoredAccount":
      return awsAccount(v.accountId, v.partnerId, v.partnerCustomerId);
    case "createApiKey":
      return { partnerId: v.partnerId };
    case "putDirectCustomer":
    case "putDirectCustomerSettings":
      return { customerId: v.customerId };
    case "triggerAnalysis":
      return { customerId: v.customerId, accountId: v.accountId };
    case "triggerPartnerAnalysis":
      return {
        partnerId: v.partnerId,
        partnerCustomerId: v.partnerCustomerId,
        accountId: v.accountId,
      };
    case "generateResourceAccessPaths":
      return {
        resourceIds: [`arn:aws:iam::${v.accountId}:role/target`],
        principalAccessCapabilities: ["use-resource"],
        service: "STS",
        accessCapabilityOperator: "OR",
      };
    case "putCustomerAccount": {
      const {
        partnerId: _p,
        partnerCustomerId: _c,
        ...account
      } = awsAccount(v.accountId, v.partnerId, v.partnerCustomerId);
      return { ...account, customerId: v.customerId };
    }
    default:
      return {};
  }
}

async function victimState() {
  const base = `/partner/${victim.partnerId}/customer/victim-tenant/account`;
  const partner = await h.admin("GET", `/partner/${victim.partnerId}`);
  const accounts = await h.admin("GET", base);
  const executions = await h.admin("GET", `${base}/123456789012/executions`);
  return { partner: partner.json, accounts: accounts.json, executions: executions.json };
}

const protectedRoutes = endpoints.filter((r) => r.access.kind !== "public");
it("has protected routes for the checks below", () => expect(protectedRoutes).not.toHaveLength(0));

describe.each(protectedRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
  "%s",
  (_name, route) => {
    const request = (key?: string, body?: unknown) =>
      h.call(route.method.toUpperCase(), fill(route.path), {
        key,
        body: route.takesBody ? (body ?? sampleBody(route.operationId)) : undefined,
      });

    it("answers 401 without a key and with an unknown key", async () => {
      for (const key of [undefined, "sl_not-a-real-key", "x".repeat(600)]) {
        const res = await request(key);
        expect(res.status).toBe(401);
        expect(typeof res.json.message).toBe("string");
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
    });

    it("answers 403 to another partner's key and to a customer key, and changes nothing", async () => {
      if (route.access.kind === "authenticated") {
        // Documents any caller may read: every kind of key gets them.
        for (const key of [intruder.key, customerKey])
          expect((await request(key)).status).toBe(200);
        return;
      }
      const before = await victimState();
      for (const key of [intruder.key, customerKey]) {
        for (const body of [undefined, { junk: true }]) {
          const res = await request(key, body);
          expect(res.status).toBe(403);
          expect(res.json.message).toMatch(/^Caller is not authorized to /);
          if (route.access.kind === "scoped") {
            const [owner] = Object.values(route.access.scope(values()));
            expect(owner).toMatch(/^[PC]\d+$/);
            expect(res.json.message).toContain(owner);
          }
          if (route.path.includes("{partnerCustomerId}"))
            expect(res.json.message).toContain("victim-tenant");
        }
      }
      expect(await victimState()).toEqual(before);
    });
  },
);

describe("API keys", () => {
  it("are shown once, work until revoked, and are stored only as hashes", async () => {
    const partner = await h.newPartner();
    expect(
      (await h.call("GET", `/partner/${partner.partnerId}`, { key: partner.key })).status,
    ).toBe(200);
    const revoked = await h.admin("DELETE", `/admin/api-keys/${partner.keyId}`);
    expect(revoked).toMatchObject({ status: 200, json: { id: partner.keyId } });
    expect(
      (await h.call("GET", `/partner/${partner.partnerId}`, { key: partner.key })).status,
    ).toBe(401);
    expect((await h.admin("DELETE", `/admin/api-keys/${partner.keyId}`)).status).toBe(404);
  });

  it("lets a customer key be issued only to a registered direct customer", async () => {
    const res = await h.admin("POST", "/admin/api-keys", { customerId: "C999999" });
    expect(res.status).toBe(404);
    expect(res.json.message).toContain("C999999");
    const bad = await h.admin("POST", "/admin/api-keys", { customerId: "C12" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues).toEqual([expect.objectContaining({ path: "customerId" })]);
  });

  it("lets the operator act under any partner", async () => {
    const res = await h.admin("GET", `/partner/${victim.partnerId}/customer/victim-tenant/account`);
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(1);
  });
});
