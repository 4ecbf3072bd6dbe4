import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  appendResourceReach,
  beginAnalysisResult,
  copyAnalysisRows,
  createDb,
  finishExecution,
  getAnalysisPrincipal,
  getAnalysisResult,
  insertExecution,
  insertPrincipalResults,
  insertResourceResults,
  latestAnalysisResult,
  previousAnalysisResult,
  principalResultPages,
  pruneAnalysisResults,
  resourceHeadsOf,
  resourceResultPages,
  resourceResultsOf,
  type StoredPrincipalResult,
  type StoredResourceResult,
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

  it("store every byte, text and JSON value of principals and resources as given", async () => {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    const executionId = await analysis(customerId, "BYTES", 1);
    // Every byte value, an empty value, and a large one; texts with quotes, backslashes, emoji.
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const bytes = [every, Buffer.alloc(0), Buffer.alloc(300_000, 0xfe), Buffer.from([0, 0, 0])];
    const texts = ['with "quotes"', "back\\slash", "emoji \u{1F600}", "tab\tnew\nline", "ä/ö"];
    const principals: StoredPrincipalResult[] = bytes.map((data, i) => ({
      principalArn: `arn:aws:iam::123456789012:role/${texts[i % texts.length]}-${i}`,
      principalName: texts[(i + 1) % texts.length] as string,
      principalType: i % 2 ? "IAMUser" : "IAMRole",
      iamAdmin: i === 0 ? "yes" : "no",
      data,
      details: { lastUsed: i === 1 ? null : "2026-01-02T03:04:05.000Z", keys: [texts[i]], n: i },
    }));
    const resources: StoredResourceResult[] = bytes.map((data, i) => ({
      resourceArn: `arn:aws:s3:::${texts[i % texts.length]}-${i}`,
      resourceType: "S3Bucket",
      resourceName: texts[(i + 2) % texts.length] as string,
      confidentiality: i === 2 ? "" : "High",
      data,
      outside: bytes[(i + 1) % bytes.length] as Buffer,
      holders: (i === 1 ? {} : { "write-data": i, "delete-data": 2 * i }) as Record<string, number>,
    }));
    await insertPrincipalResults(handle.db, executionId, principals);
    await insertResourceResults(handle.db, executionId, resources);
    const readPrincipals: StoredPrincipalResult[] = [];
    for await (const page of principalResultPages(handle.db, executionId))
      readPrincipals.push(...page);
    const readResources: StoredResourceResult[] = [];
    for await (const page of resourceResultPages(handle.db, executionId))
      readResources.push(...page);
    const byArn = <T>(rows: T[], arn: (row: T) => string) =>
      [...rows].sort((a, b) => Buffer.compare(Buffer.from(arn(a)), Buffer.from(arn(b))));
    expect(readPrincipals).toEqual(byArn(principals, (p) => p.principalArn));
    // Text that is not well-formed Unicode is stored with U+FFFD in place, as a parameter is.
    await insertPrincipalResults(handle.db, executionId, [
      {
        ...(principals[0] as StoredPrincipalResult),
        principalArn: "arn:z",
        principalName: "half \ud83d",
      },
    ]);
    const half = await getAnalysisPrincipal(handle.db, executionId, "arn:z");
    expect(half?.principalName).toBe("half \ufffd");
    expect(readResources).toEqual(byArn(resources, (r) => r.resourceArn));
  });

  it("copy a step's resources in Postgres, some with bytes appended to their reach and new holders", async () => {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    const from = await analysis(customerId, "FROM", 10);
    const to = await analysis(customerId, "INTO", 5);
    const resources: StoredResourceResult[] = [0, 1, 2, 3].map((i) => ({
      resourceArn: `arn:aws:s3:::bucket-${i}`,
      resourceType: "S3Bucket",
      resourceName: `bucket-${i}`,
      confidentiality: i === 0 ? "High" : "",
      // Ends with the empty final block that an append replaces; bucket-3's does not.
      data: Buffer.from(i === 3 ? [i, 0, 255, i] : [i, 0, 255, i, 3, 0]),
      outside: Buffer.from(`outside ${i}`),
      holders: { "write-data": i },
    }));
    await insertResourceResults(handle.db, from, resources);
    const append = (arn: string, bytes: number[], holders: Record<string, number> = {}) => ({
      resourceArn: `arn:aws:s3:::${arn}`,
      append: Buffer.from(bytes),
      holders,
    });
    const appended = await appendResourceReach(handle.db, from, to, [
      append("bucket-1", [7, 7, 3, 0], { "write-data": 2 }),
      append("bucket-2", [9, 3, 0]),
      // Not in the previous results: nothing to append to.
      append("bucket-9", [1, 3, 0]),
      // Its reach does not end as one that can be appended to does.
      append("bucket-3", [1, 3, 0]),
    ]);
    expect(appended).toBe(2);
    const copied = await copyAnalysisRows(handle.db, from, to, {
      principals: [],
      resources: ["arn:aws:s3:::bucket-1", "arn:aws:s3:::bucket-2"],
    });
    expect(copied.resources).toBe(2);
    const arns = resources.map((r) => r.resourceArn);
    const read = await resourceResultsOf(handle.db, to, arns);
    expect(read).toEqual([
      resources[0],
      {
        ...resources[1],
        data: Buffer.from([1, 0, 255, 1, 7, 7, 3, 0]),
        holders: { "write-data": 2 },
      },
      { ...resources[2], data: Buffer.from([2, 0, 255, 2, 9, 3, 0]), holders: {} },
      resources[3],
    ]);
    // The heads: everything but the reach.
    expect(await resourceHeadsOf(handle.db, from, arns)).toEqual(
      resources.map(({ data: _data, ...head }) => head),
    );
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
