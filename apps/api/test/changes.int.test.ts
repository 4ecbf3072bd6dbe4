import {
  beginAnalysisResult,
  finishExecution,
  insertAccessChanges,
  recordComparison,
  recordFindings,
} from "@sightline/db";
import { type AccessChange, ChangeList, ExecutionRecord, FindingList } from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import {
  customerAccountPath,
  monitorCustomerAccount,
  monitorPartnerAccount,
  partnerAccountPath,
  partnerTrigger,
} from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const ACCOUNT = "123456789012";

type Owner = { key: string; customerId: string; path: string };

/** A change as the comparison would store it. */
const change = (n: number, kind: AccessChange["kind"] = "access-gained"): AccessChange => ({
  changeId: n.toString(16).padStart(32, "0"),
  kind,
  change: "added",
  principalArn: `arn:aws:iam::${ACCOUNT}:user/u${n}`,
  principalName: `u${n}`,
  principalType: "IAMUser",
  serviceName: "S3",
  accessCapability: "read-data",
  resourceArn: "",
  confidential: false,
  before: "no access",
  after: "read-data",
  grantedBy: ["inline 'read'"],
});

/** A succeeded analysis of the owner's account that found `changes` and two findings. */
async function analysed(owner: Owner, body: object, changes: AccessChange[]) {
  const res = await h.call("POST", `${owner.path}/analysis`, { key: owner.key, body });
  expect(res.status).toBe(202);
  const executionId = res.json.executionId as string;
  const analysisTime = new Date();
  const execution = { executionId, customerId: owner.customerId, accountId: ACCOUNT, analysisTime };
  await beginAnalysisResult(h.deps.db, {
    ...execution,
    provider: "aws",
    resultsVersion: "test",
    previousExecutionId: null,
  });
  const stored = changes.map(({ cause, ...c }) => ({
    changeId: c.changeId,
    kind: c.kind,
    change: c,
    ...(cause ? { cause } : {}),
  }));
  await insertAccessChanges(h.deps.db, execution, stored, 0);
  const { current } = await recordFindings(h.deps.db, execution, [
    {
      findingId: "a".repeat(32),
      kind: "iam-admin",
      subject: "arn:x",
      severity: "medium",
      detail: { title: "IAM administrator", description: "x is one" },
    },
    {
      findingId: "b".repeat(32),
      kind: "unused-principal",
      subject: "arn:y",
      severity: "low",
      detail: { title: "Unused principal" },
    },
  ]);
  await recordComparison(h.deps.db, executionId, {
    previousExecutionId: null,
    changes: changes.length,
    findings: current.length,
  });
  await finishExecution(h.deps.db, executionId, {
    status: "succeeded",
    reportKeys: [],
    warnings: [],
  });
  return executionId;
}

const U2_CAUSE = {
  kind: "policy" as const,
  principalArn: `arn:aws:iam::${ACCOUNT}:user/u2`,
  eventIds: ["e-1"],
};

let partnerA: Owner;
let partnerB: Owner;
let customerC: Owner;
let customerD: Owner;
let executionOfA: string;

beforeAll(async () => {
  const [a, b] = await Promise.all([
    h.newPartner().then((p) => h.newPartnerCustomer(p)),
    h.newPartner().then((p) => h.newPartnerCustomer(p)),
  ]);
  const [c, d] = await Promise.all([h.newDirectCustomer(), h.newDirectCustomer()]);
  await Promise.all([
    monitorPartnerAccount(h, a, ACCOUNT),
    monitorPartnerAccount(h, b, ACCOUNT),
    monitorCustomerAccount(h, c, ACCOUNT),
  ]);
  partnerA = { key: a.key, customerId: a.customerId, path: partnerAccountPath(a, ACCOUNT) };
  partnerB = { key: b.key, customerId: b.customerId, path: partnerAccountPath(b, ACCOUNT) };
  customerC = { key: c.key, customerId: c.customerId, path: customerAccountPath(c, ACCOUNT) };
  customerD = { key: d.key, customerId: d.customerId, path: customerAccountPath(d, ACCOUNT) };
  executionOfA = await analysed(
    partnerA,
    partnerTrigger(a, ACCOUNT),
    [1, 2, 3].map((n) => (n === 2 ? { ...change(n), cause: U2_CAUSE } : change(n))),
  );
  await analysed(customerC, { customerId: c.customerId, accountId: ACCOUNT }, [
    change(9, "iam-admin-gained"),
  ]);
});

describe("GET …/account/{accountId}/changes", () => {
  it("lists a partner account's changes in pages, each with the analysis that found it", async () => {
    const first = await h.call("GET", `${partnerA.path}/changes?limit=2`, { key: partnerA.key });
    expect(first.status).toBe(200);
    const page1 = ChangeList.parse(first.json);
    expect(page1.changes.map((c) => c.principalName)).toEqual(["u1", "u2"]);
    expect(page1.changes[0]).toMatchObject({ executionId: executionOfA, kind: "access-gained" });
    // Its cause as stored; none for a change stored before causes were.
    expect(page1.changes[1]?.cause).toEqual(U2_CAUSE);
    expect(page1.changes[0]).not.toHaveProperty("cause");
    const cursor = encodeURIComponent(page1.nextCursor ?? "");
    const second = await h.call("GET", `${partnerA.path}/changes?limit=2&cursor=${cursor}`, {
      key: partnerA.key,
    });
    const page2 = ChangeList.parse(second.json);
    expect(page2.changes.map((c) => c.principalName)).toEqual(["u3"]);
    expect(page2.nextCursor).toBeUndefined();
  });

  it("keeps the analyses at or after `since`", async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    const res = await h.call("GET", `${partnerA.path}/changes?since=${future}`, {
      key: partnerA.key,
    });
    expect(ChangeList.parse(res.json).changes).toEqual([]);
    const past = await h.call("GET", `${customerC.path}/changes?since=2020-01-01T00:00:00Z`, {
      key: customerC.key,
    });
    expect(ChangeList.parse(past.json).changes.map((c) => c.kind)).toEqual(["iam-admin-gained"]);
  });

  it("answers 403 to another partner or customer, and each sees only its own account", async () => {
    for (const [key, path] of [
      [partnerB.key, partnerA.path],
      [customerC.key, partnerA.path],
      [customerD.key, customerC.path],
      [partnerA.key, customerC.path],
    ] as const) {
      for (const what of ["changes", "findings"]) {
        const res = await h.call("GET", `${path}/${what}`, { key });
        expect(res.status, `${path}/${what}`).toBe(403);
        expect(res.json.message).toMatch(/^Caller is not authorized to list the /);
      }
    }
    // Partner B monitors the same account number: none of A's changes are its.
    const own = await h.call("GET", `${partnerB.path}/changes`, { key: partnerB.key });
    expect(ChangeList.parse(own.json).changes).toEqual([]);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["since=yesterday", "since"],
    ["cursor=not%20a%20cursor", "cursor"],
  ])("answers 400 to %s, naming the field", async (query, field) => {
    const res = await h.call("GET", `${partnerA.path}/changes?${query}`, { key: partnerA.key });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain(field);
  });

  it("answers 400 to a well-formed cursor that is no page position", async () => {
    const forged = Buffer.from(JSON.stringify({ t: "never" })).toString("base64url");
    const res = await h.call("GET", `${partnerA.path}/changes?cursor=${forged}`, {
      key: partnerA.key,
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("cursor");
  });
});

describe("GET …/account/{accountId}/findings", () => {
  it("lists the findings with their first and last seen times, filtered by status", async () => {
    const res = await h.call("GET", `${partnerA.path}/findings`, { key: partnerA.key });
    expect(res.status).toBe(200);
    const list = FindingList.parse(res.json);
    expect(list.findings.map((f) => [f.kind, f.status, f.title])).toEqual([
      ["iam-admin", "active", "IAM administrator"],
      ["unused-principal", "active", "Unused principal"],
    ]);
    expect(list.findings[0]?.description).toBe("x is one");
    const resolved = await h.call("GET", `${partnerA.path}/findings?status=resolved`, {
      key: partnerA.key,
    });
    expect(FindingList.parse(resolved.json).findings).toEqual([]);
    const bad = await h.call("GET", `${partnerA.path}/findings?status=open`, { key: partnerA.key });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("status");
  });
});

it("counts the changes and findings in the execution record", async () => {
  const res = await h.call("GET", `/executions/${executionOfA}`, { key: partnerA.key });
  expect(ExecutionRecord.parse(res.json)).toMatchObject({ changes: 3, findings: 2 });
});

describe("…/review-settings", () => {
  it("answers the defaults, stores a replacement, and refuses a bad value naming it", async () => {
    const path = partnerA.path.replace(/\/account\/\d+$/, "/review-settings");
    const defaults = await h.call("GET", path, { key: partnerA.key });
    expect(defaults.status).toBe(200);
    expect(defaults.json).toEqual({
      confidentialValues: ["high", "confidential", "restricted", "secret"],
      unusedPrincipalDays: 90,
      credentialRotationDays: 90,
      unusedAccessKeyDays: 90,
      maxPrincipalsPerCapability: 5,
    });
    const put = await h.call("PUT", path, {
      key: partnerA.key,
      body: { confidentialValues: ["PII"], unusedPrincipalDays: 30 },
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      confidentialValues: ["PII"],
      unusedPrincipalDays: 30,
      maxPrincipalsPerCapability: 5,
    });
    expect((await h.call("GET", path, { key: partnerA.key })).json).toEqual(put.json);
    for (const [body, field] of [
      [{ unusedPrincipalDays: 0 }, "unusedPrincipalDays"],
      [{ confidentialValues: [] }, "confidentialValues"],
      [{ confidentialValues: ["a\nb"] }, "confidentialValues"],
      [{ thresholds: 3 }, "thresholds"],
    ] as const) {
      const res = await h.call("PUT", path, { key: partnerA.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json)).toContain(field);
    }
    expect((await h.call("GET", path, { key: partnerA.key })).json).toEqual(put.json);
  });

  it("answers 403 to another partner or customer", async () => {
    const partnerPath = partnerA.path.replace(/\/account\/\d+$/, "/review-settings");
    const customerPath = customerC.path.replace(/\/account\/\d+$/, "/review-settings");
    for (const [key, path] of [
      [partnerB.key, partnerPath],
      [customerC.key, partnerPath],
      [customerD.key, customerPath],
      [partnerA.key, customerPath],
    ] as const) {
      expect((await h.call("GET", path, { key })).status).toBe(403);
      expect((await h.call("PUT", path, { key, body: {} })).status).toBe(403);
    }
    expect((await h.call("PUT", customerPath, { key: customerC.key, body: {} })).status).toBe(200);
  });
});
