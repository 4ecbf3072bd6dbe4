import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { smallAccount } from "@sightline/aws-fake";
import { getExecution } from "@sightline/db";
import { afterAll, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startWorker } from "../src/worker/start-worker.ts";
import { startPipeline } from "./support/pipeline.ts";

// The first collection waits on a slow credential report (12 polls, 100 ms apart): time to kill
// its worker mid-job. The expiry leaves a loaded machine room for the second attempt.
const pipeline = await startPipeline({
  model: { ...smallAccount.model, credentialReportPolls: 12 },
  worker: false,
  queue: { expireInSeconds: 20 },
  credentialReportPollMs: 100,
});
const { settings } = pipeline;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill("SIGKILL");
  await pipeline.close();
});

async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("a worker killed in the middle of a job", () => {
  it("loses nothing: the job runs again elsewhere and one complete report set is delivered", async () => {
    const partner = await pipeline.partner();
    const { executionId } = await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    child = fork(fileURLToPath(new URL("./support/worker-process.ts", import.meta.url)), {
      execArgv: ["--conditions=@sightline/source", "--import", "tsx"],
      env: {
        ...process.env,
        SIGHTLINE_TEST_WORKER: JSON.stringify({
          databaseUrl: pipeline.databaseUrl,
          schema: pipeline.schema,
          settings: { ...settings, pollingIntervalSeconds: 0.5 },
        }),
      },
      stdio: "ignore",
    });
    const reportPolls = () =>
      pipeline.fake.calls.filter((c) => c.operation === "GenerateCredentialReport").length;
    await until(
      async () => (await getExecution(pipeline.ctx.db, executionId))?.status === "running",
    );
    await until(() => reportPolls() >= 3);
    child.kill("SIGKILL");
    await new Promise((resolve) => child?.once("exit", resolve));

    // Another worker takes over once the job's expiry passes.
    await startWorker(pipeline.ctx, settings);
    const execution = await pipeline.finished(executionId);
    // Attempt 2 on an idle machine; a loaded one may also let that attempt outlive the expiry.
    expect(execution.status).toBe("succeeded");
    expect(execution.attempts).toBeGreaterThanOrEqual(2);
    const manifests = [...pipeline.fake.objects.keys()].filter(
      (key) => key.includes(`/customers/${partner.customerId}/`) && key.includes("/manifest."),
    );
    expect(manifests).toHaveLength(1);
    const objects = [...pipeline.fake.objects.keys()].filter((key) =>
      key.includes(`/customers/${partner.customerId}/`),
    );
    expect(objects).toHaveLength(execution.reportKeys.length);
  }, 120_000);
});
