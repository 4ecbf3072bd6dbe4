import { finishExecution } from "@sightline/db";
import { ExecutionList, ExecutionRecord } from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import {
  customerAccountPath,
  executionIds,
  finish,
  monitorCustomerAccount,
  monitorPartnerAccount,
  partnerAccountPath,
  partnerTrigger,
} from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const ACCOUNT = "123456789012";

type PartnerCustomer = Awaited<ReturnType<typeof h.newPartnerCustomer>>;
type DirectCustomer = Awaited<ReturnType<typeof h.newDirectCustomer>>;

async function triggerPartner(pc: PartnerCustomer, accountId = ACCOUNT): Promise<string> {
  const res = await h.call("POST", `${partnerAccountPath(pc, accountId)}/analysis`, {
    key: pc.key,
    body: partnerTrigger(pc, accountId),
  });
  expect(res.status).toBe(202);
  return res.json.executionId as string;
}

async function triggerCustomer(customer: DirectCustomer): Promise<string> {
  const res = await h.call("POST", `${customerAccountPath(customer, ACCOUNT)}/analysis`, {
    key: customer.key,
    body: { customerId: customer.customerId, accountId: ACCOUNT },
  });
  expect(res.status).toBe(202);
  return res.json.executionId as string;
}

let partnerA: PartnerCustomer;
let partnerB: PartnerCustomer;
let customerC: DirectCustomer;
let customerD: DirectCustomer;
let ofA: string;
let ofC: string;

beforeAll(async () => {
  [partnerA, partnerB] = await Promise.all([
    h.newPartner().then((p) => h.newPartnerCustomer(p)),
    h.newPartner().then((p) => h.newPartnerCustomer(p)),
  ]);
  [customerC, customerD] = await Promise.all([h.newDirectCustomer(), h.newDirectCustomer()]);
  await monitorPartnerAccount(h, partnerA, ACCOUNT);
  await monitorCustomerAccount(h, customerC, ACCOUNT);
  ofA = await triggerPartner(partnerA);
  ofC = await triggerCustomer(customerC);
});

describe("GET /executions/{executionId}", () => {
  it("answers the execution to its partner, its customer and the operator", async () => {
    const res = await h.call("GET", `/executions/${ofA}`, { key: partnerA.key });
    expect(res.status).toBe(200);
    const record = ExecutionRecord.strict().parse(res.json);
    expect(record).toEqual({
      executionId: ofA,
      kind: "ondemand",
      status: "queued",
      customerId: partnerA.customerId,
      accountId: ACCOUNT,
      createdAt: expect.any(String),
      reports: [],
      warnings: [],
    });
    expect((await h.call("GET", `/executions/${ofC}`, { key: customerC.key })).status).toBe(200);
    expect((await h.admin("GET", `/executions/${ofA}`)).json).toEqual(res.json);
  });

  it("answers 403 to another partner or customer, naming the execution", async () => {
    for (const [key, executionId] of [
      [partnerB.key, ofA],
      [customerC.key, ofA],
      [customerD.key, ofC],
      [partnerA.key, ofC],
    ] as const) {
      const res = await h.call("GET", `/executions/${executionId}`, { key });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(`Caller is not authorized to read execution ${executionId}`);
    }
  });

  it("answers 403 to a stranger even for an execution that does not exist, 404 to its owner", async () => {
    const missing = `ondemand-${partnerA.customerId}-${ACCOUNT}-2020-01-01_ZZZZ`;
    expect((await h.call("GET", `/executions/${missing}`, { key: partnerB.key })).status).toBe(403);
    const res = await h.call("GET", `/executions/${missing}`, { key: partnerA.key });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(`Execution ${missing} does not exist`);
  });

  it.each([
    "nonsense",
    `ondemand-C12345-${ACCOUNT}-2020-01-01_zzzz`,
    "ondemand-P123456-123456789012-2020-01-01_ABCD",
  ])("answers 400 to the malformed ID %s", async (executionId) => {
    const res = await h.admin("GET", `/executions/${executionId}`);
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual([expect.objectContaining({ path: "executionId" })]);
  });

  it("shows a failure with its code and message, and when it ended", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    await monitorPartnerAccount(h, pc, ACCOUNT);
    const executionId = await triggerPartner(pc);
    const failure = {
      code: "ASSUME_ROLE_DENIED",
      message: `AssumeRole was denied: check the trust policy of arn:aws:iam::${ACCOUNT}:role/SightlineAuditor and the external ID`,
    };
    await finishExecution(h.deps.db, executionId, { status: "failed", failure, warnings: [] });
    const res = await h.call("GET", `/executions/${executionId}`, { key: pc.key });
    expect(ExecutionRecord.parse(res.json)).toMatchObject({
      status: "failed",
      failure,
      finishedAt: expect.any(String),
    });
  });
});

describe("the executions of an account", () => {
  it("lists the latest first, only the account's, and honours limit", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    await monitorPartnerAccount(h, pc, ACCOUNT);
    await monitorPartnerAccount(h, pc, "210987654321");
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push(await triggerPartner(pc));
      await finish(h.deps, ids.at(-1) ?? "");
    }
    await triggerPartner(pc, "210987654321");
    const path = `${partnerAccountPath(pc, ACCOUNT)}/executions`;
    const list = await h.call("GET", path, { key: pc.key });
    expect(list.status).toBe(200);
    const newestFirst = [...ids].reverse();
    expect(ExecutionList.parse(list.json).map((e) => e.executionId)).toEqual(newestFirst);
    expect(ExecutionList.parse(list.json).map((e) => e.status)).toEqual(Array(3).fill("succeeded"));
    const two = await h.call("GET", `${path}?limit=2`, { key: pc.key });
    expect(executionIds(two.json)).toEqual(newestFirst.slice(0, 2));
  });

  it.each(["0", "201", "two", "1.5"])("refuses limit=%s with 400", async (limit) => {
    const res = await h.call(
      "GET",
      `${partnerAccountPath(partnerA, ACCOUNT)}/executions?limit=${limit}`,
      {
        key: partnerA.key,
      },
    );
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^Invalid query parameter: limit /);
  });

  it("lists a direct customer's, and answers 404 for an unknown owner", async () => {
    const list = await h.call("GET", `${customerAccountPath(customerC, ACCOUNT)}/executions`, {
      key: customerC.key,
    });
    expect(executionIds(list.json)).toEqual([ofC]);
    expect((await h.admin("GET", `/customer/C000004/account/${ACCOUNT}/executions`)).status).toBe(
      404,
    );
    const unknown = `/partner/${partnerA.partnerId}/customer/no-such-tenant/account/${ACCOUNT}/executions`;
    const res = await h.call("GET", unknown, { key: partnerA.key });
    expect(res.status).toBe(404);
    expect(res.json.message).toContain("Customer no-such-tenant of partner");
  });

  it("answers 403 to another partner's or customer's key", async () => {
    const partnerList = `${partnerAccountPath(partnerA, ACCOUNT)}/executions`;
    expect((await h.call("GET", partnerList, { key: partnerB.key })).status).toBe(403);
    const customerList = `${customerAccountPath(customerC, ACCOUNT)}/executions`;
    expect((await h.call("GET", customerList, { key: customerD.key })).status).toBe(403);
  });
});
