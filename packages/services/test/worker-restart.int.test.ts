import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { smallAccount } from "@sightline/aws-fake";
import { getExecution, rawQuery } from "@sightline/db";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// The first collection waits on a slow credential report (40 polls, 100 ms apart): time to kill
// or pause its worker mid-job. pg-boss's expiry is 10 minutes: only the lease brings a job back.
// Each test has a fake of its own: the fake generates its credential report once.
let pipeline: Pipeline;
const children: ChildProcess[] = [];
beforeEach(async () => {
  pipeline = await startPipeline({
    model: { ...smallAccount.model, credentialReportPolls: 40 },
    worker: false,
    queue: { expireInSeconds: 600 },
    credentialReportPollMs: 100,
  });
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  }
  await pipeline.close();
});

/** Waits for `check`, failing after `seconds` with `what`. */
async function until(check: () => Promise<boolean> | boolean, seconds = 60, what = "condition") {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The warnings the worker processes logged (forwarded over IPC). */
const childWarnings: string[] = [];

function startWorkerProcess(): ChildProcess {
  const child = fork(fileURLToPath(new URL("./support/worker-process.ts", import.meta.url)), {
    execArgv: ["--conditions=@sightline/source", "--import", "tsx"],
    env: {
      ...process.env,
      SIGHTLINE_TEST_WORKER: JSON.stringify({
        databaseUrl: pipeline.databaseUrl,
        schema: pipeline.schema,
        settings: { ...pipeline.settings, pollingIntervalSeconds: 0.5 },
      }),
    },
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  child.on("message", (message: { log?: string }) => {
    if (message.log) childWarnings.push(message.log);
  });
  children.push(child);
  return child;
}

const reportPolls = () =>
  pipeline.fake.calls.filter((c) => c.operation === "GenerateCredentialReport").length;

const objectsOf = (customerId: string) =>
  [...pipeline.fake.objects.keys()].filter((key) => key.includes(`/customers/${customerId}/`));

describe("a worker that stops in the middle of a job", () => {
  it("killed: its lease lapses, another worker runs the job at once, and one complete report set is delivered", async () => {
    const partner = await pipeline.partner();
    const { executionId } = await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const child = startWorkerProcess();
    await until(
      async () => (await getExecution(pipeline.ctx.db, executionId))?.status === "running",
    );
    const polls = reportPolls();
    await until(() => reportPolls() >= polls + 3);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const killedAt = Date.now();

    // Another worker takes the job over once the lease is lost (4 s here), not at the expiry.
    startWorkerProcess();
    await until(
      async () => ((await getExecution(pipeline.ctx.db, executionId))?.attempts ?? 0) >= 2,
      30,
      "the second attempt starts within 30 s of the kill",
    );
    const recoveredAfter = (Date.now() - killedAt) / 1000;
    const execution = await pipeline.finished(executionId);
    expect(execution.status).toBe("succeeded");
    expect(execution.attempts).toBe(2);
    expect(execution.warnings.map((w) => w.code)).toContain("WORKER_LOST");
    expect(recoveredAfter).toBeLessThan(30);
    const manifests = objectsOf(partner.customerId).filter((key) => key.includes("/manifest."));
    expect(manifests).toHaveLength(1);
    expect(objectsOf(partner.customerId)).toHaveLength(execution.reportKeys.length);
    // Taken back without counting a retry: the lost job cancelled, its copy completed, both at 0.
    const jobs = async () =>
      (
        await pipeline.ctx.db.execute(
          rawQuery(
            `select state, retry_count as "retryCount" from "${pipeline.schema}".job
             where name = 'analysis' and data->>'executionId' = $1`,
            [executionId],
          ),
        )
      )
        .map((j) => [j.state, j.retryCount])
        .sort();
    // pg-boss completes the job just after the handler has recorded the execution's end.
    await until(async () => !(await jobs()).some(([state]) => state === "active"), 30, "settled");
    expect(await jobs()).toEqual([
      ["cancelled", 0],
      ["completed", 0],
    ]);
  }, 180_000);

  it("paused past its lease: when it wakes, it writes nothing — the attempt that holds the lease delivers and ends the execution", async () => {
    const partner = await pipeline.partner();
    const { executionId } = await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const child = startWorkerProcess();
    await until(
      async () => (await getExecution(pipeline.ctx.db, executionId))?.status === "running",
    );
    const polls = reportPolls();
    await until(() => reportPolls() >= polls + 3);
    child.kill("SIGSTOP");
    // Another worker takes the job over and finishes it.
    startWorkerProcess();
    const execution = await pipeline.finished(executionId);
    expect(execution.status).toBe("succeeded");
    const delivered = objectsOf(partner.customerId).sort();
    const writes = () =>
      pipeline.fake.calls.filter((c) => c.service === "s3" && !/^(Get|Head|List)/.test(c.operation))
        .length;
    const written = writes();
    child.kill("SIGCONT");
    // The woken attempt finishes its collection (it stops at its next fenced write) or learns
    // at once that its lease is gone; either way, nothing of it reaches the inbox or the row.
    await until(
      () =>
        childWarnings.some((line) => line.includes("an attempt that lost its lease has stopped")),
      90,
      "the woken attempt stops",
    );
    expect(objectsOf(partner.customerId).sort()).toEqual(delivered);
    expect(writes()).toBe(written);
    const after = await getExecution(pipeline.ctx.db, executionId);
    expect(after?.finishedAt).toEqual(execution.finishedAt);
    expect(after?.attempts).toBe(execution.attempts);
  }, 180_000);
});
