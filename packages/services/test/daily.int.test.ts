import { smallAccount } from "@sightline/aws/testing";
import { listExecutions } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionId } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DAILY_QUEUE } from "../src/queue/analysis-queue.ts";
import { startPipeline } from "./support/pipeline.ts";

// The daily run takes every monitored account: a database of its own keeps other files' out.
const database = await createTestDatabase(inject("databaseUrl"));
const pipeline = await startPipeline({ databaseUrl: database.url });
afterAll(async () => {
  await pipeline.close();
  await database.dispose();
});
const { ctx } = pipeline;

describe("the daily analysis", () => {
  it("analyses every monitored account under a daily execution ID", async () => {
    const first = await pipeline.partner();
    const second = await pipeline.partner();
    // What the 07:00 schedule sends; the window is 0 minutes in this pipeline.
    await ctx.boss.send(DAILY_QUEUE, {});
    for (const partner of [first, second]) {
      const key = { customerId: partner.customerId, accountId: smallAccount.ACCOUNT_ID };
      let executions = await listExecutions(ctx.db, key, 5);
      while (executions.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        executions = await listExecutions(ctx.db, key, 5);
      }
      const [execution] = executions;
      expect(execution?.kind).toBe("daily");
      const id = execution?.executionId ?? "";
      expect(ExecutionId.parse(id)).toMatch(
        new RegExp(
          `^daily-${partner.customerId}-${smallAccount.ACCOUNT_ID}-\\d{4}-\\d\\d-\\d\\d_[A-Z0-9]{4}$`,
        ),
      );
      expect((await pipeline.finished(id)).status).toBe("succeeded");
    }
  });
});
