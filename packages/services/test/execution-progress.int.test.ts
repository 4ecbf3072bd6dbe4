import { smallAccount } from "@sightline/aws-fake";
import { getExecution, rawQuery, toExecutionRecord } from "@sightline/db";
import { createTestDatabase, type TestDatabase } from "@sightline/db/testing";
import type { AccountAnalysis } from "@sightline/engine";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runAnalysis } from "../src/analysis/run-analysis.ts";
import {
  countingPrincipals,
  type StageCount,
  StageProgress,
} from "../src/analysis/stage-progress.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

describe("a running execution's progress, written at most every few seconds", () => {
  it("writes the stage at once and a count only once the interval has passed since the last write", async () => {
    let now = 0;
    const writes: string[] = [];
    const progress = new StageProgress(
      async (stage, count) => {
        writes.push(count ? `${stage} ${count.done}/${count.total}` : stage);
      },
      3000,
      () => now,
    );
    const count = (done: number) => ({ done, total: 100, unit: "principals" });
    await progress.enter("writing");
    for (const [at, done] of [
      [1000, 10],
      [2999, 20],
      [3000, 30],
      [4000, 40],
      [5999, 50],
      [6500, 60],
    ] as const) {
      now = at;
      progress.count(count(done));
    }
    now = 7000;
    await progress.enter("delivering");
    now = 7100;
    progress.count({ done: 1, total: 2, unit: "bytes" });
    await progress.settled();
    expect(writes).toEqual(["writing", "writing 30/100", "writing 60/100", "delivering"]);
  });

  it("counts a principal as analysed once the next one's rows begin, ending at all of them", () => {
    const principal = (arn: string) =>
      ({ principalArn: arn }) as AccountAnalysis["principals"][number];
    const row = (arn: string) => ({ principalArn: arn }) as never;
    const analysis = {
      principals: ["a", "b", "c", "d"].map(principal),
      // b has no access: no rows.
      principalAccessSummaries: () => ["a", "a", "c", "d", "d"].map(row),
    } as unknown as AccountAnalysis;
    const counts: number[] = [];
    const rows = [
      ...countingPrincipals(analysis, (c) => counts.push(c.done)).principalAccessSummaries(),
    ];
    expect(rows).toHaveLength(5);
    expect(counts).toEqual([0, 2, 3, 4]);
  });
});

describe("an analysis shows its stages and counts (the worker's writes, as the database saw them)", () => {
  let database: TestDatabase;
  let pipeline: Pipeline;
  beforeAll(async () => {
    // A database of its own: the trigger below sees every update of `executions`.
    database = await createTestDatabase(inject("databaseUrl"));
    pipeline = await startPipeline({ databaseUrl: database.url, worker: false });
    await pipeline.ctx.db.execute(
      rawQuery(
        `create table stage_log (seq bigserial primary key, execution_id text, stage text, progress jsonb);
        create function log_stage() returns trigger language plpgsql as $f$
          begin
            insert into stage_log (execution_id, stage, progress) values (new.execution_id, new.stage, new.progress);
            return new;
          end $f$;
        create trigger log_stage after update of stage, progress on executions
          for each row when (new.stage is distinct from old.stage or new.progress is distinct from old.progress)
          execute function log_stage();`,
        [],
      ),
    );
  });
  afterAll(async () => {
    await pipeline?.close();
    await database?.dispose();
  });

  async function analyse(progressIntervalSeconds: number) {
    const partner = await pipeline.partner({ featureFlags: { latestReportEnabled: true } });
    const { executionId } = await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const settings = { ...pipeline.settings.analysis, progressIntervalSeconds };
    const outcome = await runAnalysis(pipeline.ctx, settings, executionId, { final: true });
    expect(outcome.status).toBe("succeeded");
    const log = (await pipeline.ctx.db.execute(
      rawQuery(`select stage, progress from stage_log where execution_id = $1 order by seq`, [
        executionId,
      ]),
    )) as unknown as { stage: string; progress: StageCount | null }[];
    return { executionId, log: [...log] };
  }

  it("counts principals while writing and bytes while delivering, each to its total", async () => {
    const { executionId, log } = await analyse(0);
    expect([...new Set(log.map((l) => l.stage))]).toEqual([
      "collecting",
      "analysing",
      "writing",
      "storing",
      "delivering",
      "alerting",
    ]);
    const counted = (stage: string) =>
      log.filter((l) => l.stage === stage && l.progress).map((l) => l.progress as StageCount);
    const principals = counted("writing");
    const model = smallAccount.model.authorizationDetails as {
      UserDetailList: unknown[];
      RoleDetailList: unknown[];
    };
    const total = model.UserDetailList.length + model.RoleDetailList.length;
    expect(principals.length).toBeGreaterThan(1);
    expect(principals.every((p) => p.unit === "principals" && p.total === total)).toBe(true);
    expect(principals.map((p) => p.done)).toEqual(
      [...principals.map((p) => p.done)].sort((a, b) => a - b),
    );
    expect(principals.at(-1)?.done).toBe(total);

    const bytes = counted("delivering");
    const execution = await getExecution(pipeline.ctx.db, executionId);
    const delivered = (execution?.reportKeys ?? [])
      .filter((key) => !/manifest\.[^/]+\.json$/.test(key))
      .map(
        (key) =>
          pipeline.fake.objects.get(`${smallAccount.INBOX_BUCKET}/${key}`)?.size ?? Number.NaN,
      )
      .reduce((sum, size) => sum + size, 0);
    expect(delivered).toBeGreaterThan(0);
    expect(bytes.every((b) => b.unit === "bytes" && b.total === delivered)).toBe(true);
    expect(bytes.at(-1)?.done).toBe(delivered);
    // Once it has ended, the record shows neither stage nor progress.
    const record = toExecutionRecord(execution as NonNullable<typeof execution>);
    expect(record.stage).toBeUndefined();
    expect(record.progress).toBeUndefined();
  });

  it("writes no count sooner than its interval after the stage began", async () => {
    const { log } = await analyse(3600);
    expect(log.length).toBeGreaterThanOrEqual(6);
    expect(log.filter((l) => l.progress !== null)).toEqual([]);
  });
});
