import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// Two API processes (the built start command, SIGHTLINE_ROLE=api) on one database, both kept
// busy by a load generator: a key revoked through one, and a partner configuration changed
// through one, are seen by the other within seconds (the change feed; about a second when idle).

const OPERATOR_KEY = randomBytes(32).toString("base64url");
/** How long a change may take to reach the other process before the test fails. */
const BOUND_MS = 5_000;
/** How long a poll waits for its condition at most (a loaded machine is slow, not broken). */
const DEADLINE_MS = 15_000;
/** Rate limits far above the load: every request is counted, none refused. */
const LIMIT = 100_000;

interface ApiProcess {
  name: string;
  child: ChildProcess;
  url: string;
  /** The last lines it wrote, for a failure's message; its request log is not kept. */
  tail(): string;
}

async function startApi(name: string): Promise<ApiProcess> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL("../dist/main.js", import.meta.url))],
    {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: inject("databaseUrl"),
        SIGHTLINE_DATA_DIR: await mkdtemp(path.join(tmpdir(), `sightline-${name}-`)),
        SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
        SIGHTLINE_ROLE: "api",
        PORT: "0",
        SIGHTLINE_API_PROCESSES: "2",
        SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND: String(LIMIT),
        SIGHTLINE_RATE_LIMIT_KEY_BURST: String(LIMIT),
        SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND: String(LIMIT),
        SIGHTLINE_RATE_LIMIT_CLIENT_BURST: String(LIMIT),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const started = performance.now();
  for (;;) {
    const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
    if (match?.[1]) return { name, child, url: match[1], tail: () => output };
    if (child.exitCode !== null) throw new Error(`API process ${name} exited: ${output}`);
    if (performance.now() - started > 60_000)
      throw new Error(`API process ${name} did not listen within 60 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function call(
  base: ApiProcess,
  method: string,
  route: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(`${base.url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** A configured partner with a key of its own, made through process `via`. */
async function newPartner(via: ApiProcess) {
  const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
  const created = await call(via, "POST", "/admin/api-keys", OPERATOR_KEY, { partnerId });
  expect(created.status).toBe(201);
  const key = created.json.key as string;
  expect((await call(via, "PUT", `/partner/${partnerId}`, key, { partnerId })).status).toBe(200);
  return { partnerId, key, keyId: created.json.id as string };
}

/** Milliseconds from `since` until `accept` holds for `read()`, read every few milliseconds. */
async function msUntil<T>(
  since: number,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
): Promise<number> {
  for (;;) {
    if (accept(await read())) return performance.now() - since;
    if (performance.now() - since > DEADLINE_MS)
      throw new Error(`not seen within ${DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a poll's interval
  }
}

/**
 * Loops of authenticated GETs against both processes, until stopped; counts the answers by
 * process and status ("a 200").
 */
function generateLoad(targets: { api: ApiProcess; route: string; key: string }[], loops: number) {
  const counts = new Map<string, number>();
  let running = true;
  const loop = async (target: { api: ApiProcess; route: string; key: string }) => {
    while (running) {
      const response = await fetch(`${target.api.url}${target.route}`, {
        headers: { authorization: `Bearer ${target.key}` },
      });
      await response.arrayBuffer();
      const name = `${target.api.name} ${response.status}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  };
  const done = Promise.all(
    Array.from({ length: loops }, (_, i) =>
      loop(targets[i % targets.length] as (typeof targets)[0]),
    ),
  );
  return {
    counts,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    answeredBy: (api: ApiProcess) =>
      [...counts].reduce((sum, [name, n]) => sum + (name.startsWith(`${api.name} `) ? n : 0), 0),
    async stop() {
      running = false;
      await done;
    },
  };
}

let a: ApiProcess;
let b: ApiProcess;
beforeAll(async () => {
  [a, b] = await Promise.all([startApi("a"), startApi("b")]);
});
afterAll(() => {
  a?.child.kill("SIGKILL");
  b?.child.kill("SIGKILL");
});

describe("two API processes on one database, under load", () => {
  it("see a key revoked and a configuration changed through the other within seconds", async () => {
    const rounds = 3;
    const busy = await newPartner(a);
    const revoked = await Promise.all(Array.from({ length: rounds }, () => newPartner(a)));
    const changed = await newPartner(a);
    const load = generateLoad(
      [a, b].flatMap((api) => [
        { api, route: `/partner/${busy.partnerId}`, key: busy.key },
        { api, route: `/partner/${changed.partnerId}`, key: changed.key },
        ...revoked.map((p) => ({ api, route: `/partner/${p.partnerId}`, key: p.key })),
      ]),
      8,
    );
    const startedAt = performance.now();
    const revocations: number[] = [];
    const changes: number[] = [];
    try {
      // Both processes busy before anything is measured.
      await msUntil(
        startedAt,
        async () => Math.min(load.answeredBy(a), load.answeredBy(b)),
        (answered) => answered >= 200,
      );
      // Each process halves its limits (SIGHTLINE_API_PROCESSES=2).
      const first = await call(b, "GET", `/partner/${busy.partnerId}`, busy.key);
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-limit")).toBe(String(LIMIT / 2));

      for (const partner of revoked) {
        const read = () => call(b, "GET", `/partner/${partner.partnerId}`, partner.key);
        expect((await read()).status).toBe(200); // B knows (and caches) the key
        const since = performance.now();
        const deleted = await call(a, "DELETE", `/admin/api-keys/${partner.keyId}`, OPERATOR_KEY);
        expect(deleted.status).toBe(200);
        revocations.push(await msUntil(since, read, (r) => r.status === 401));
      }

      const read = () => call(b, "GET", `/partner/${changed.partnerId}`, changed.key);
      for (let round = 0; round < rounds; round++) {
        const awsEncryptionKeyId = `arn:aws:kms:us-east-1:111122223333:key/${randomUUID()}`;
        expect((await read()).json).not.toHaveProperty("awsEncryptionKeyId", awsEncryptionKeyId);
        const since = performance.now();
        const body = { partnerId: changed.partnerId, awsEncryptionKeyId };
        const put = await call(a, "PUT", `/partner/${changed.partnerId}`, changed.key, body);
        expect(put.status).toBe(200);
        changes.push(
          await msUntil(since, read, (r) => r.json.awsEncryptionKeyId === awsEncryptionKeyId),
        );
      }
    } finally {
      await load.stop();
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const format = (ms: number[]) => ms.map((n) => `${n.toFixed(0)} ms`).join(", ");
    console.log(
      `two API processes, ${load.total()} requests of load in ${seconds.toFixed(1)} s ` +
        `(${(load.total() / seconds).toFixed(0)}/s; by status ${JSON.stringify(Object.fromEntries(load.counts))}): ` +
        `revocation seen by B after ${format(revocations)}; configuration change after ${format(changes)}`,
    );
    // The load ran throughout on both, and was answered: 200 for live keys, 401 for revoked ones.
    expect(load.answeredBy(a)).toBeGreaterThan(200);
    expect(load.answeredBy(b)).toBeGreaterThan(200);
    expect([...load.counts.keys()].sort()).toEqual(["a 200", "a 401", "b 200", "b 401"]);
    for (const ms of [...revocations, ...changes]) expect(ms).toBeLessThanOrEqual(BOUND_MS);
    expect(a.child.exitCode, a.tail()).toBeNull();
    expect(b.child.exitCode, b.tail()).toBeNull();
  }, 120_000);
});
