import { PLAN_LIMITS, secondsUntilNextUtcDay, TriggeredAnalysis } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import {
  customerAccountPath,
  finish,
  jobsOf,
  monitorCustomerAccount,
  ON_DEMAND_ID,
  utcDatesAround,
} from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const ACCOUNT = "123456789012";

describe("POST /customer/{customerId}/account/{accountId}/analysis", () => {
  it("answers 202 with the contract's body and queues the execution with its job", async () => {
    const customer = await h.newDirectCustomer();
    await monitorCustomerAccount(h, customer, ACCOUNT);
    const [res, dates] = await utcDatesAround(() =>
      h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
        key: customer.key,
        body: { customerId: customer.customerId, accountId: ACCOUNT },
      }),
    );
    expect(res.status).toBe(202);
    const body = TriggeredAnalysis.strict().parse(res.json);
    const [, customerId, accountId, date] = ON_DEMAND_ID.exec(body.executionId) ?? [];
    expect([body.customerId, customerId, accountId]).toEqual([
      customer.customerId,
      customer.customerId,
      ACCOUNT,
    ]);
    expect(dates).toContain(date);
    expect(res.headers.get("location")).toBe(`/executions/${body.executionId}`);
    const execution = await h.call("GET", `/executions/${body.executionId}`, { key: customer.key });
    expect(execution.json).toMatchObject({ status: "queued", kind: "ondemand" });
    expect(await jobsOf(h.deps, body.executionId)).toHaveLength(1);
  });

  it("refuses a body that contradicts the path", async () => {
    const customer = await h.newDirectCustomer();
    await monitorCustomerAccount(h, customer, ACCOUNT);
    const res = await h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
      key: customer.key,
      body: { customerId: "C999999", accountId: ACCOUNT },
    });
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual([
      { path: "customerId", message: `must equal the path parameter '${customer.customerId}'` },
    ]);
    const extra = await h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
      key: customer.key,
      body: {
        customerId: customer.customerId,
        accountId: ACCOUNT,
        auditorAuthMethod: "credential",
      },
    });
    expect(extra.status).toBe(400);
    expect(extra.json.issues).toEqual([expect.objectContaining({ path: "auditorAuthMethod" })]);
  });

  it("answers 404 for an unregistered customer and an unmonitored account", async () => {
    const unregistered = await h.admin("POST", `/customer/C000001/account/${ACCOUNT}/analysis`, {
      customerId: "C000001",
      accountId: ACCOUNT,
    });
    expect(unregistered.status).toBe(404);
    expect(unregistered.json.message).toBe(
      "Customer C000001 is not registered: the operator registers it with PUT /admin/customers/C000001",
    );
    const customer = await h.newDirectCustomer();
    const unmonitored = await h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
      key: customer.key,
      body: { customerId: customer.customerId, accountId: ACCOUNT },
    });
    expect(unmonitored.status).toBe(404);
    expect(unmonitored.json.message).toBe(
      `Account ${ACCOUNT} is not monitored: configure it with PUT ${customerAccountPath(customer, ACCOUNT)} first`,
    );
  });

  it("answers 429 with Retry-After past the plan's daily on-demand analyses", async () => {
    const customer = await h.newDirectCustomer("Starter");
    await monitorCustomerAccount(h, customer, ACCOUNT);
    const path = `${customerAccountPath(customer, ACCOUNT)}/analysis`;
    const trigger = () =>
      h.call("POST", path, {
        key: customer.key,
        body: { customerId: customer.customerId, accountId: ACCOUNT },
      });
    const limit = PLAN_LIMITS.Starter.onDemandTriggersPerDay;
    for (let n = 0; n < limit; n++) {
      const accepted = await trigger();
      expect(accepted.status).toBe(202);
      await finish(h.deps, accepted.json.executionId as string);
    }
    const refused = await trigger();
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(
      `Account ${ACCOUNT} has had its ${limit} on-demand analyses of today (plan Starter); the next is possible at 00:00 UTC`,
    );
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Math.abs(retryAfter - secondsUntilNextUtcDay(new Date()))).toBeLessThanOrEqual(2);
    const list = await h.call("GET", `${customerAccountPath(customer, ACCOUNT)}/executions`, {
      key: customer.key,
    });
    expect(list.json).toHaveLength(limit);
  });

  it("counts each account apart: another account of the customer is not limited", async () => {
    const customer = await h.newDirectCustomer("Starter");
    const other = "210987654321";
    await monitorCustomerAccount(h, customer, ACCOUNT);
    await monitorCustomerAccount(h, customer, other);
    for (let n = 0; n < PLAN_LIMITS.Starter.onDemandTriggersPerDay; n++) {
      const res = await h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
        key: customer.key,
        body: { customerId: customer.customerId, accountId: ACCOUNT },
      });
      expect(res.status).toBe(202);
      await finish(h.deps, res.json.executionId as string);
    }
    const res = await h.call("POST", `${customerAccountPath(customer, other)}/analysis`, {
      key: customer.key,
      body: { customerId: customer.customerId, accountId: other },
    });
    expect(res.status).toBe(202);
  });
});
