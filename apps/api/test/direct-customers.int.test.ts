import {
  CustomerAccountList,
  CustomerAccountRecord,
  DirectCustomerView,
  PLAN_LIMITS,
} from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { customerAccountPath, directAwsAccount } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const KEY_ARN = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

describe("PUT and GET /customer/{customerId}", () => {
  it("stores the delivery settings, answers them with name and plan, and replaces them", async () => {
    const customer = await h.newDirectCustomer("Team");
    const settings = {
      customerId: customer.customerId,
      awsEncryptionKeyId: KEY_ARN,
      deliveryDestinations: { DeliverToS3: { bucketName: "customer-inbox" } },
      featureFlags: { latestReportEnabled: true, hiveEnabled: true },
    };
    const path = `/customer/${customer.customerId}`;
    const put = await h.call("PUT", path, { key: customer.key, body: settings });
    expect(put.status).toBe(200);
    const expected = { ...settings, subscriptionPlanName: "Team" };
    expect(DirectCustomerView.strict().parse(put.json)).toEqual(expected);
    expect((await h.call("GET", path, { key: customer.key })).json).toEqual(expected);

    const cleared = await h.call("PUT", path, {
      key: customer.key,
      body: { customerId: customer.customerId },
    });
    expect(cleared.json).toEqual({
      customerId: customer.customerId,
      subscriptionPlanName: "Team",
      deliveryDestinations: {},
      featureFlags: {},
    });
    expect((await h.admin("GET", path)).json).toEqual(cleared.json);
  });

  it("refuses a name with control characters (NUL reaches Postgres as error 22021) and stores nothing", async () => {
    const customerId = `C${String(Math.floor(Math.random() * 900_000) + 100_000)}`;
    for (const name of ["Acme\u0000Corp", "Acme\nCorp", "x".repeat(201)]) {
      const put = await h.admin("PUT", `/admin/customers/${customerId}`, { customerId, name });
      expect(put.status, JSON.stringify(name)).toBe(400);
      expect(put.json.message).toMatch(
        /^Invalid request body: name must (not contain control characters|be at most 200 characters)/,
      );
    }
    const key = await h.admin("POST", "/admin/api-keys", { customerId });
    expect(key.status).toBe(404);
  });

  it("answers 404 for a customer the operator has not registered", async () => {
    const put = await h.admin("PUT", "/customer/C000002", { customerId: "C000002" });
    expect(put.status).toBe(404);
    expect(put.json.message).toBe(
      "Customer C000002 is not registered: the operator registers it with PUT /admin/customers/C000002",
    );
    expect((await h.admin("GET", "/customer/C000002")).status).toBe(404);
  });

  it.each([
    [
      "DeliverToS3 without a key",
      { deliveryDestinations: { DeliverToS3: { bucketName: "b-1" } } },
      "awsEncryptionKeyId",
    ],
    [
      "an unknown feature flag",
      { featureFlags: { fastEnabled: true } },
      "featureFlags.fastEnabled",
    ],
    ["a plan (the operator's)", { subscriptionPlanName: "Enterprise" }, "subscriptionPlanName"],
    ["another customerId", { customerId: "C999999" }, "customerId"],
  ])("refuses %s with 400 naming %s", async (_name, change, field) => {
    const customer = await h.newDirectCustomer();
    const res = await h.call("PUT", `/customer/${customer.customerId}`, {
      key: customer.key,
      body: { customerId: customer.customerId, ...change },
    });
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual([expect.objectContaining({ path: field })]);
  });
});

describe("a direct customer's monitored accounts", () => {
  it("configures, lists and deletes accounts; deleting again still answers 200", async () => {
    const customer = await h.newDirectCustomer();
    const base = `/customer/${customer.customerId}/account`;
    const put = await h.call("PUT", customerAccountPath(customer, "210987654321"), {
      key: customer.key,
      body: directAwsAccount(customer.customerId, "210987654321"),
    });
    expect(put.status).toBe(200);
    const record = { customerId: customer.customerId, accountId: "210987654321", provider: "aws" };
    expect(CustomerAccountRecord.strict().parse(put.json)).toEqual(record);
    await h.call("PUT", customerAccountPath(customer, "123456789012"), {
      key: customer.key,
      body: directAwsAccount(customer.customerId, "123456789012"),
    });
    const list = await h.call("GET", base, { key: customer.key });
    expect(CustomerAccountList.parse(list.json).map((r) => r.accountId)).toEqual([
      "123456789012",
      "210987654321",
    ]);
    expect(list.text).not.toContain("sightline-ext-");

    const path = customerAccountPath(customer, "210987654321");
    expect(await h.call("DELETE", path, { key: customer.key })).toMatchObject({
      status: 200,
      json: record,
    });
    const again = await h.call("DELETE", path, { key: customer.key });
    expect(again).toMatchObject({
      status: 200,
      json: { customerId: customer.customerId, accountId: "210987654321" },
    });
    expect(again.json.provider).toBeUndefined();
    expect((await h.call("GET", base, { key: customer.key })).json).toHaveLength(1);
  });

  it("answers 404 for an unregistered customer on PUT, DELETE and list", async () => {
    const path = "/customer/C000003/account/123456789012";
    const put = await h.admin("PUT", path, directAwsAccount("C000003", "123456789012"));
    expect(put.status).toBe(404);
    expect(put.json.message).toContain("Customer C000003 is not registered");
    expect((await h.admin("DELETE", path)).status).toBe(404);
    expect((await h.admin("GET", "/customer/C000003/account")).status).toBe(404);
  });

  it.each([
    [
      "the cvs method",
      { auditorAuthMethod: "cvs", auditorAuthConfig: undefined },
      "auditorAuthMethod",
    ],
    ["a body accountId different from the path", { accountId: "123456789013" }, "accountId"],
    [
      "a role of another account",
      { auditorAuthConfig: { roleArn: "arn:aws:iam::999999999999:role/A", externalId: "abc" } },
      "auditorAuthConfig.roleArn",
    ],
    ["a partner's members", { partnerId: "P123456" }, "partnerId"],
  ])("refuses %s with 400 naming %s", async (_name, change, field) => {
    const customer = await h.newDirectCustomer();
    const res = await h.call("PUT", customerAccountPath(customer, "123456789012"), {
      key: customer.key,
      body: { ...directAwsAccount(customer.customerId, "123456789012"), ...change },
    });
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field })]),
    );
    const list = await h.call("GET", `/customer/${customer.customerId}/account`, {
      key: customer.key,
    });
    expect(list.json).toEqual([]);
  });

  it("refuses a new account past the plan's limit with 429, and still replaces existing ones", async () => {
    const customer = await h.newDirectCustomer("Starter");
    const limit = PLAN_LIMITS.Starter.monitoredAccounts;
    const account = (n: number) => String(100_000_000_000 + n);
    const put = (n: number) =>
      h.call("PUT", customerAccountPath(customer, account(n)), {
        key: customer.key,
        body: directAwsAccount(customer.customerId, account(n)),
      });
    for (let n = 0; n < limit; n++) expect((await put(n)).status).toBe(200);
    const refused = await put(limit);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(
      `Account ${account(limit)} was not added: plan Starter monitors at most ${limit} accounts per customer; delete one or move to a larger plan`,
    );
    expect(refused.headers.get("retry-after")).toBeNull();
    expect((await put(0)).status).toBe(200);
    const list = await h.call("GET", `/customer/${customer.customerId}/account`, {
      key: customer.key,
    });
    expect(list.json).toHaveLength(limit);
  });
});
