import { ExecutionRecord, TriggeredPartnerAnalysis } from "@sightline/domain";
import { ANALYSIS_QUEUE } from "@sightline/services";
import { describe, expect, it } from "vitest";
import {
  executionIds,
  jobsOf,
  jobsOfAccount,
  monitorPartnerAccount,
  ON_DEMAND_ID,
  ownCredential,
  partnerAccountPath,
  partnerTrigger,
  utcDatesAround,
} from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const ACCOUNT = "210987654321";

async function monitoredPartnerCustomer() {
  const pc = await h.newPartnerCustomer(await h.newPartner());
  await monitorPartnerAccount(h, pc, ACCOUNT);
  return pc;
}

describe("POST /partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/analysis", () => {
  it("answers 202 with the contract's body, and queues the execution with its job", async () => {
    const pc = await monitoredPartnerCustomer();
    const [res, dates] = await utcDatesAround(() =>
      h.call("POST", `${partnerAccountPath(pc, ACCOUNT)}/analysis`, {
        key: pc.key,
        body: partnerTrigger(pc, ACCOUNT),
      }),
    );
    expect(res.status).toBe(202);
    const body = TriggeredPartnerAnalysis.strict().parse(res.json);
    expect(body).toEqual({
      partnerId: pc.partnerId,
      partnerCustomerId: pc.partnerCustomerId,
      customerId: pc.customerId,
      accountId: ACCOUNT,
      executionId: expect.stringMatching(ON_DEMAND_ID),
    });
    const [, customerId, accountId, date] = ON_DEMAND_ID.exec(body.executionId) ?? [];
    expect([customerId, accountId]).toEqual([pc.customerId, ACCOUNT]);
    expect(dates).toContain(date);
    expect(res.headers.get("location")).toBe(`/executions/${body.executionId}`);

    const execution = await h.call("GET", `/executions/${body.executionId}`, { key: pc.key });
    expect(ExecutionRecord.parse(execution.json)).toMatchObject({
      executionId: body.executionId,
      kind: "ondemand",
      status: "queued",
      customerId: pc.customerId,
      accountId: ACCOUNT,
      reports: [],
    });
    const jobs = await jobsOf(h.deps, body.executionId);
    expect(jobs).toEqual([
      expect.objectContaining({
        name: ANALYSIS_QUEUE,
        state: "created",
        data: { executionId: body.executionId, tenant: expect.any(String) },
        singleton_key: `${pc.customerId}/${ACCOUNT}`,
      }),
    ]);
    const job = await h.boss.getJobById(ANALYSIS_QUEUE, jobs[0]?.id ?? "");
    expect(job?.data).toEqual({ executionId: body.executionId, tenant: expect.any(String) });
  });

  it("answers 409 naming the queued execution, and queues nothing more", async () => {
    const pc = await monitoredPartnerCustomer();
    const path = `${partnerAccountPath(pc, ACCOUNT)}/analysis`;
    const first = await h.call("POST", path, { key: pc.key, body: partnerTrigger(pc, ACCOUNT) });
    expect(first.status).toBe(202);
    const executionId = first.json.executionId as string;
    const second = await h.call("POST", path, { key: pc.key, body: partnerTrigger(pc, ACCOUNT) });
    expect(second.status).toBe(409);
    expect(second.json.message).toContain(executionId);
    expect(second.headers.get("x-execution-id")).toBe(executionId);
    const list = await h.call("GET", `${partnerAccountPath(pc, ACCOUNT)}/executions`, {
      key: pc.key,
    });
    expect(executionIds(list.json)).toEqual([executionId]);
    expect(await jobsOf(h.deps, executionId)).toHaveLength(1);
  });

  it("accepts exactly one of 20 concurrent triggers; the others answer 409 naming it", async () => {
    const pc = await monitoredPartnerCustomer();
    const path = `${partnerAccountPath(pc, ACCOUNT)}/analysis`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.call("POST", path, { key: pc.key, body: partnerTrigger(pc, ACCOUNT) }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    const executionId = accepted[0]?.json.executionId as string;
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused.map((a) => a.status)).toEqual(Array(19).fill(409));
    for (const answer of refused) {
      expect(answer.headers.get("x-execution-id")).toBe(executionId);
      expect(answer.json.message).toContain(executionId);
    }
    const list = await h.call("GET", `${partnerAccountPath(pc, ACCOUNT)}/executions`, {
      key: pc.key,
    });
    expect(executionIds(list.json)).toEqual([executionId]);
    expect(await jobsOfAccount(h.deps, pc.customerId, ACCOUNT)).toEqual([
      expect.objectContaining({ data: { executionId, tenant: expect.any(String) } }),
    ]);
  });

  it("lets the operator trigger, and refuses a body that contradicts the path", async () => {
    const pc = await monitoredPartnerCustomer();
    const path = `${partnerAccountPath(pc, ACCOUNT)}/analysis`;
    const mismatch = await h.call("POST", path, {
      key: pc.key,
      body: partnerTrigger(pc, "123456789012"),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.issues).toEqual([
      { path: "accountId", message: `must equal the path parameter '${ACCOUNT}'` },
    ]);
    const noBody = await h.call("POST", path, { key: pc.key, body: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.json.issues).toHaveLength(3);
    expect((await h.admin("POST", path, partnerTrigger(pc, ACCOUNT))).status).toBe(202);
  });

  it("answers 404 saying what to configure: the partner customer, then the account", async () => {
    const partner = await h.newPartner();
    const unknown = { ...partner, partnerCustomerId: "no-such-tenant", customerId: "" };
    const res = await h.call("POST", `${partnerAccountPath(unknown, ACCOUNT)}/analysis`, {
      key: partner.key,
      body: partnerTrigger(unknown, ACCOUNT),
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(
      `Customer no-such-tenant of partner ${partner.partnerId} is not configured: PUT /partner/${partner.partnerId}/customer/no-such-tenant first`,
    );

    const pc = await h.newPartnerCustomer(partner);
    const unmonitored = await h.call("POST", `${partnerAccountPath(pc, ACCOUNT)}/analysis`, {
      key: pc.key,
      body: partnerTrigger(pc, ACCOUNT),
    });
    expect(unmonitored.status).toBe(404);
    expect(unmonitored.json.message).toBe(
      `Account ${ACCOUNT} is not monitored: configure it with PUT ${partnerAccountPath(pc, ACCOUNT)} first, or trigger with your own credential`,
    );
  });

  it("queues an Azure subscription's analysis like an AWS account's (202)", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const subscription = "0b1f6471-1bf0-4dda-aec3-111122223333";
    const put = await h.call("PUT", partnerAccountPath(pc, subscription), {
      key: pc.key,
      body: {
        ...partnerTrigger(pc, subscription),
        provider: "azure",
        auditorAuthMethod: "config",
        auditorAuthConfig: { tenantId: subscription, clientId: subscription },
      },
    });
    expect(put.status).toBe(200);
    const res = await h.call("POST", `${partnerAccountPath(pc, subscription)}/analysis`, {
      key: pc.key,
      body: partnerTrigger(pc, subscription),
    });
    expect(res.status).toBe(202);
    const { executionId } = TriggeredPartnerAnalysis.parse(res.json);
    expect(executionId).toMatch(new RegExp(`^ondemand-${pc.customerId}-${subscription}-`));
    expect(res.headers.get("location")).toBe(`/executions/${executionId}`);
    const execution = await h.call("GET", `/executions/${executionId}`, { key: pc.key });
    expect(execution.json).toMatchObject({ status: "queued", accountId: subscription });

    // Own credentials are AWS-only (section 2.5): 400 naming the field and the rule.
    const own = await h.call("POST", `${partnerAccountPath(pc, subscription)}/analysis`, {
      key: pc.key,
      body: partnerTrigger(pc, subscription, {
        auditorAuthMethod: "credential",
        auditorAuthCredential: ownCredential("123456789012"),
      }),
    });
    expect(own.status).toBe(400);
    expect(own.json.issues).toContainEqual(expect.objectContaining({ path: "auditorAuthMethod" }));
    expect(own.json.message).toContain("own credentials (section 2.5) are AWS-only");
  });
});
