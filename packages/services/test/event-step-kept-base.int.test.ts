import { gunzipSync } from "node:zlib";
import { smallAccount } from "@sightline/aws-fake";
import { getSnapshotOfExecution, listExecutions } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { afterAll, describe, expect, it } from "vitest";
import { maintenanceHandler } from "../src/worker/maintenance-job.ts";
import { waitFor } from "./support/alerts.ts";
import { eventAccount } from "./support/event-account.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const lines: { msg?: string; executionId?: string; base?: string }[] = [];
const pipeline = await startPipeline({
  model: structuredClone(smallAccount.model),
  logger: createLogger({ level: "info", write: (line) => lines.push(JSON.parse(line)) }),
});
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const BOB = `arn:aws:iam::${ACCOUNT}:user/bob`;

const statement = (Effect: "Allow" | "Deny", action: string) => ({
  Version: "2012-10-17",
  Statement: [{ Effect, Action: action, Resource: "*" }],
});
const allow = (action: string) => statement("Allow", action);

/**
 * A worker keeps each account's last event step (`StepBases`): the next step starts from it, but
 * only while the newest stored snapshot is still that step's.
 */
describe("an event step started from the worker's last step of the account", async () => {
  const { key, analyse, post, changesOf } = await eventAccount(pipeline, ACCOUNT);
  const seen = new Set((await listExecutions(ctx.db, key, 50)).map((e) => e.executionId));
  /** Posts the event and waits for the event step it makes to end. */
  const step = async (event: unknown) => {
    expect((await post(event)).status).toBe("accepted");
    const ended = await waitFor(
      async () => {
        const [latest] = await listExecutions(ctx.db, key, 1);
        return latest?.kind === "event" &&
          !seen.has(latest.executionId) &&
          ["succeeded", "failed"].includes(latest.status)
          ? latest
          : undefined;
      },
      "the event step to end",
      60_000,
    );
    seen.add(ended.executionId);
    expect(ended.status, ended.failureMessage ?? "").toBe("succeeded");
    const changes = await changesOf(ended.executionId);
    const base = lines.find((l) => l.executionId === ended.executionId && l.base)?.base;
    return { ...ended, changes, base };
  };

  const first = await step(fake.control.putInlinePolicy("user", "alice", "queues", allow("sqs:*")));
  const second = await step(
    fake.control.putInlinePolicy("user", "alice", "topics", allow("sns:*")),
  );
  // bob is made an admin without an event: the next full analysis finds it.
  fake.control.makeAdmin("bob");
  const full = await analyse();
  seen.add(full.executionId);
  const fullChanges = await changesOf(full.executionId);
  const third = await step(fake.control.deleteInlinePolicy("user", "alice", "queues"));
  // Denied SQS, bob loses it (and is read back whole: he is still an admin).
  const fourth = await step(
    fake.control.putInlinePolicy("user", "bob", "no-queues", statement("Deny", "sqs:*")),
  );

  it("starts from the stored snapshot first, then from the step it kept", () => {
    expect(first.base).toBe("stored");
    expect(second.base).toBe("kept");
    expect(second.changes.some((c) => c.principalArn.endsWith(":user/alice"))).toBe(true);
  });

  it("starts from the stored snapshot again once a full analysis stored a newer one", async () => {
    expect(full.status).toBe("succeeded");
    expect(fullChanges.some((c) => c.kind === "iam-admin-gained" && c.principalArn === BOB)).toBe(
      true,
    );
    expect(third.base).toBe("stored");
    // The step patched the full analysis's snapshot: bob is still an admin in what it stored.
    const stored = await getSnapshotOfExecution(ctx.db, third.executionId);
    const snapshot = JSON.parse(gunzipSync(stored?.data as Buffer).toString("utf8")).snapshot;
    const bob = snapshot.authorizationDetails.UserDetailList.find(
      (u: { UserName: string }) => u.UserName === "bob",
    );
    expect(bob.AttachedManagedPolicies.map((p: { PolicyName: string }) => p.PolicyName)).toContain(
      "AdministratorAccess",
    );
  });

  it("reports only what each event did: bob's admin neither lost nor gained again", () => {
    expect(fourth.base).toBe("kept");
    for (const { changes } of [third, fourth])
      expect(changes.filter((c) => c.kind.startsWith("iam-admin"))).toEqual([]);
    expect(fourth.changes.some((c) => c.principalArn === BOB)).toBe(true);
  });

  it("leaves the maintenance job only the snapshots still of use: full analyses', the newest, the stored results'", async () => {
    const ids = [first, second, full, third, fourth].map((e) => e.executionId);
    const stored = async () => {
      const kept = [];
      for (const id of ids) if (await getSnapshotOfExecution(ctx.db, id)) kept.push(id);
      return kept;
    };
    expect(await stored()).toEqual(ids);
    // A retention of 0 hours: every step's snapshot is past it.
    await maintenanceHandler(ctx, 30, pipeline.settings.analysis, 0)();
    // The results of the two newest (the third and fourth steps) are kept, so are their snapshots.
    expect(await stored()).toEqual([full, third, fourth].map((e) => e.executionId));
  });
});
