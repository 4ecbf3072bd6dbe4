import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionRecord } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import { fakeAwsEnv, logLines, START_COMMAND, until } from "./start-command.ts";

// Two API and two worker processes (the built start command, SIGHTLINE_ROLE=api and worker) on
// one database, restarted one after the other with SIGTERM while clients call them: every
// request that got an answer got a correct one, none that a process read went unanswered, and
// every analysis a 202 started ends. On a database of its own.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
const database = await createTestDatabase(inject("databaseUrl"));
const fake = await startFakeAws(smallAccount.model);
const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-rolling-"));
const processes = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill("SIGKILL");
  await fake.close();
  await database.dispose();
});

interface Started {
  child: ChildProcess;
  /** The API's base URL (role api). */
  url?: string;
}

/** The start command in `role`, ready (listening, or its worker started). */
async function start(role: "api" | "worker"): Promise<Started> {
  const child = spawn(process.execPath, [START_COMMAND], {
    env: {
      PATH: process.env.PATH ?? "",
      SIGHTLINE_ROLE: role,
      DATABASE_URL: database.url,
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
      PORT: "0",
      SIGHTLINE_POLL_SECONDS: "0.5",
      SIGHTLINE_DRAIN_SECONDS: "30",
      SIGHTLINE_LEASE_RENEW_SECONDS: "0.5",
      SIGHTLINE_LEASE_LOST_AFTER_SECONDS: "2",
      ...fakeAwsEnv(fake),
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  processes.add(child);
  const lines = logLines<{ msg?: string; url?: string }>(child.stdout);
  const ready = role === "api" ? "listening" : "worker started";
  const line = await until(`the ${role} process ready`, () => lines.find((l) => l.msg === ready));
  return { child, ...(line.url ? { url: line.url } : {}) };
}

/** SIGTERM, and the exit it leads to (code 0). */
async function stop(process: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => process.child.once("exit", resolve));
  process.child.kill("SIGTERM");
  return exited;
}

/** What a call came to: an answer, or none (refused: no process read it; or cut off). */
type Outcome =
  | { kind: "answer"; status: number; body: unknown; route: string }
  | { kind: "refused" }
  | { kind: "cut"; route: string; error: string };

async function call(base: string, method: string, route: string, key: string, body?: unknown) {
  try {
    const res = await fetch(`${base}${route}`, {
      method,
      // A connection per request: a request that reached a process is never one a closing
      // keep-alive connection dropped before it was read.
      headers: {
        authorization: `Bearer ${key}`,
        connection: "close",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { kind: "answer", status: res.status, body: JSON.parse(text), route } as Outcome;
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === "ECONNREFUSED") return { kind: "refused" } as Outcome;
    return { kind: "cut", route, error: `${code ?? ""} ${String(error)}` } as Outcome;
  }
}

/**
 * A trigger whose body arrives over about 1.5 s, so that it is still being read when the process
 * is told to stop; `sending` resolves once half its body is sent.
 */
function slowTrigger(base: string, partner: { key: string; account: string; body: object }) {
  const bytes = Buffer.from(JSON.stringify(partner.body));
  const parts = 10;
  let sent = 0;
  let opened: () => void = () => {};
  const sending = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Half the body sent: the process has read the request's head.
      if (sent === parts / 2) opened();
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 150));
      const size = Math.ceil(bytes.length / parts);
      controller.enqueue(bytes.subarray(sent * size, (sent + 1) * size));
      if (++sent === parts) controller.close();
    },
  });
  const answer = fetch(`${base}${partner.account}/analysis`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${partner.key}`,
      connection: "close",
      "content-type": "application/json",
    },
    body,
    duplex: "half",
  } as RequestInit).then(
    async (res): Promise<Outcome> => ({
      kind: "answer",
      status: res.status,
      body: JSON.parse(await res.text()),
      route: `${partner.account}/analysis`,
    }),
    (error: unknown): Outcome => ({ kind: "cut", route: "slow trigger", error: String(error) }),
  );
  return { sending, answer };
}

describe("a rolling restart of two API and two worker processes under load", () => {
  it("answers every request it read correctly, and every analysis it accepted ends", async () => {
    const apis = await Promise.all([start("api"), start("api")]);
    const workers = await Promise.all([start("worker"), start("worker")]);
    const base = () => apis[Math.floor(Math.random() * apis.length)]?.url as string;

    // Three partners, each monitoring the fake's account.
    const partners: { key: string; account: string; body: object }[] = [];
    for (let i = 0; i < 3; i++) {
      const partnerId = `P${String(Date.now() + i).slice(-6)}`;
      const created = await call(base(), "POST", "/admin/api-keys", OPERATOR_KEY, { partnerId });
      const key = (created as { body: { key: string } }).body.key;
      await call(base(), "PUT", `/partner/${partnerId}`, key, { partnerId });
      const customer = `/partner/${partnerId}/customer/acme-prod`;
      await call(base(), "PUT", customer, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        subscriptionPlanName: "Enterprise",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      });
      const externalId = `ext-${partnerId}`;
      fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
      const account = `${customer}/account/${smallAccount.ACCOUNT_ID}`;
      const put = await call(base(), "PUT", account, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        accountId: smallAccount.ACCOUNT_ID,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
      });
      expect(put, JSON.stringify(put)).toMatchObject({ kind: "answer", status: 200 });
      const body = {
        partnerId,
        partnerCustomerId: "acme-prod",
        accountId: smallAccount.ACCOUNT_ID,
      };
      partners.push({ key, account, body });
    }

    // Clients: a trigger or a read every 100 ms, on either API, until the restarts are done.
    const outcomes: Outcome[] = [];
    const accepted = new Map<string, string>(); // execution → its partner's key
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) {
        const partner = partners[i % partners.length] as (typeof partners)[number];
        const known = [...accepted.keys()];
        const read = known[i % Math.max(1, known.length)];
        const outcome =
          i % 3 === 0 || !read
            ? await call(base(), "POST", `${partner.account}/analysis`, partner.key, partner.body)
            : await call(base(), "GET", `/executions/${read}`, accepted.get(read) as string);
        outcomes.push(outcome);
        if (outcome.kind === "answer" && outcome.status === 202)
          accepted.set((outcome.body as { executionId: string }).executionId, partner.key);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    // One process after the other: SIGTERM, its exit, its replacement.
    for (const [role, group] of [
      ["api", apis],
      ["worker", workers],
    ] as const)
      for (const replacing of [...group]) {
        group.push(await start(role));
        // An API is stopped while it still reads a request: the request is answered.
        const slow = replacing.url ? slowTrigger(replacing.url, partners[0] as never) : undefined;
        await slow?.sending;
        expect(await stop(replacing)).toBe(0);
        group.splice(group.indexOf(replacing), 1);
        const answer = await slow?.answer;
        if (answer) outcomes.push(answer);
        if (answer?.kind === "answer" && answer.status === 202)
          accepted.set(
            (answer.body as { executionId: string }).executionId,
            partners[0]?.key as string,
          );
      }
    loading = false;
    await load;

    const answers = outcomes.filter((o) => o.kind === "answer");
    expect(answers.length).toBeGreaterThan(20);
    expect(JSON.stringify(outcomes.filter((o) => o.kind === "cut"))).toBe("[]");
    for (const answer of answers) {
      if (answer.kind !== "answer") continue;
      const expected = answer.route.endsWith("/analysis") ? [202, 409] : [200];
      expect(expected, JSON.stringify(answer)).toContain(answer.status);
      if (answer.status === 200) ExecutionRecord.parse(answer.body);
    }
    expect(accepted.size).toBeGreaterThan(0);
    for (const [executionId, key] of accepted) {
      const ended = await until(`execution ${executionId} ends`, async () => {
        const got = await call(base(), "GET", `/executions/${executionId}`, key);
        const record = got.kind === "answer" ? ExecutionRecord.parse(got.body) : undefined;
        return record && ["succeeded", "failed"].includes(record.status) ? record : undefined;
      });
      expect(ended.status, JSON.stringify(ended)).toBe("succeeded");
    }
  }, 300_000);
});
