import { smallAccount } from "@sightline/aws-fake";
import { smallTenant } from "@sightline/azure-fake";
import { listExecutions } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionId } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DAILY_QUEUE } from "../src/queue/analysis-queue.ts";
import { startPipeline } from "./support/pipeline.ts";

// The daily run takes every monitored account: a database of its own keeps other files' out.
const database = await createTestDatabase(inject("databaseUrl"));
const pipeline = await startPipeline({ databaseUrl: database.url, azure: true });
afterAll(async () => {
  await pipeline.close();
  await database.dispose();
});
const { ctx } = pipeline;

describe("the daily analysis", () => {
  it("analyses every monitored account, AWS and Azure, under a daily execution ID", async () => {
    const first = await pipeline.partner();
    const second = await pipeline.partner();
    const azure = await pipeline.azurePartner();
    // What the 07:00 schedule sends; the window is 0 minutes in this pipeline.
    await ctx.boss.send(DAILY_QUEUE, {});
    for (const [partner, accountId] of [
      [first, smallAccount.ACCOUNT_ID],
      [second, smallAccount.ACCOUNT_ID],
      [azure, smallTenant.SUBSCRIPTION_ID],
    ] as const) {
      const key = { customerId: partner.customerId, accountId };
      let executions = await listExecutions(ctx.db, key, 5);
      while (executions.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        executions = await listExecutions(ctx.db, key, 5);
      }
      const [execution] = executions;
      expect(execution?.kind).toBe("daily");
      const id = execution?.executionId ?? "";
      expect(ExecutionId.parse(id)).toMatch(
        new RegExp(`^daily-${partner.customerId}-${accountId}-\\d{4}-\\d\\d-\\d\\d_[A-Z0-9]{4}$`),
      );
      const finished = await pipeline.finished(id);
      expect(finished.status).toBe("succeeded");
      const provider = accountId === smallTenant.SUBSCRIPTION_ID ? "azure" : "aws";
      expect(finished.reportKeys.at(-1)).toContain(`/reports/${provider}/${accountId}/`);
    }
  });
});
