import { createLogger } from "@sightline/logging";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ANALYSIS_QUEUE, enqueueAnalysis } from "../src/queue/analysis-queue.ts";
import { logQueueFigures } from "../src/queue/queue-figures.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await startPipeline({ worker: false });
});
afterAll(() => pipeline.close());

it("logs each lane's depth and oldest wait per tenant at info, every interval", async () => {
  const { boss, db } = pipeline.ctx;
  for (const accountId of ["100000000001", "100000000002"])
    await db.transaction((tx) =>
      enqueueAnalysis(boss, tx, {
        executionId: `x-${accountId}`,
        customerId: "P500005-000000000001",
        accountId,
        kind: "ondemand",
      }),
    );
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ write: (line) => lines.push(JSON.parse(line)) });
  const log = logQueueFigures({ ...pipeline.ctx, logger }, 0.05);
  try {
    await expect
      .poll(() => lines.filter((l) => l.msg === "job queue").length)
      .toBeGreaterThanOrEqual(2);
  } finally {
    log.stop();
  }
  const line = lines.find((l) => l.msg === "job queue") as {
    level: string;
    lanes: {
      lane: string;
      queue: string;
      waiting: number;
      tenants: { tenant: string; waiting: number }[];
    }[];
    leases: { held: number };
  };
  expect(line.level).toBe("info");
  expect(line.lanes.map((l) => l.lane)).toEqual(["analysis", "event", "alert"]);
  expect(line.lanes[0]).toMatchObject({ queue: ANALYSIS_QUEUE, waiting: 2 });
  expect(line.lanes[0]?.tenants).toMatchObject([{ tenant: "P500005", waiting: 2 }]);
  expect(typeof line.leases.held).toBe("number");
});
