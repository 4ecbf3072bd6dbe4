import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  beginAnalysisResult,
  createDb,
  finishExecution,
  getAnalysisResult,
  insertExecution,
  insertPrincipalResults,
  latestAnalysisResult,
  previousAnalysisResult,
  principalResultPages,
  pruneAnalysisResults,
} from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const noJob = async () => {};
const ACCOUNT = "123456789012";

async function analysis(
  customerId: string,
  suffix: string,
  minutesAgo: number,
  status = "succeeded",
) {
  const executionId = `ondemand-${customerId}-${ACCOUNT}-2026-01-01_${suffix}`;
  await insertExecution(
    handle.db,
    {
      execution: {
        executionId,
        kind: "ondemand",
        customerId,
        accountId: ACCOUNT,
        provider: "aws",
        authMethod: "config",
      },
    },
    noJob,
  );
  await beginAnalysisResult(handle.db, {
    executionId,
    customerId,
    accountId: ACCOUNT,
    provider: "aws",
    analysisTime: new Date(Date.now() - minutesAgo * 60_000),
    resultsVersion: "v",
    previousExecutionId: null,
  });
  if (status === "succeeded")
    await finishExecution(handle.db, executionId, {
      status: "succeeded",
      reportKeys: [],
      warnings: [],
    });
  else
    await finishExecution(handle.db, executionId, {
      status: "failed",
      failure: { code: "INTERNAL", message: "x" },
      warnings: [],
    });
  return executionId;
}

describe("stored analysis results", () => {
  it("read principals back a page at a time in code-point order of their ARNs", async () => {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    const executionId = await analysis(customerId, "ORD1", 1);
    const arns = ["b", "B", "a/b", "a-b", "ä", "\u{1F600}", "\uFFFF", "a"].map((n) => `arn:x:${n}`);
    await insertPrincipalResults(
      handle.db,
      executionId,
      arns.map((principalArn) => ({
        principalArn,
        principalName: principalArn,
        principalType: "IAMUser",
        iamAdmin: "no",
        data: Buffer.from("{}"),
        details: {},
      })),
    );
    const read: string[] = [];
    let pages = 0;
    for await (const page of principalResultPages(handle.db, executionId, 3)) {
      pages++;
      read.push(...page.map((p) => p.principalArn));
    }
    expect(pages).toBe(3);
    const bytes = [...arns].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(read).toEqual(bytes);
  });

  it("compare with the newest succeeded analysis, and keep each account's newest two succeeded", async () => {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    const key = { customerId, accountId: ACCOUNT };
    const oldest = await analysis(customerId, "OLD1", 30);
    const older = await analysis(customerId, "OLD2", 20);
    const failed = await analysis(customerId, "FAIL", 10, "failed");
    const newest = await analysis(customerId, "NEW1", 5);
    expect(
      (await previousAnalysisResult(handle.db, { ...key, executionId: newest }))?.executionId,
    ).toBe(older);
    expect((await latestAnalysisResult(handle.db, key))?.executionId).toBe(newest);
    expect(failed).toBeDefined();
    await pruneAnalysisResults(handle.db, 2);
    expect(await getAnalysisResult(handle.db, oldest)).toBeUndefined();
    expect(await getAnalysisResult(handle.db, older)).toBeDefined();
    expect(await getAnalysisResult(handle.db, newest)).toBeDefined();
    expect(await getAnalysisResult(handle.db, failed)).toBeUndefined();
  });
});
