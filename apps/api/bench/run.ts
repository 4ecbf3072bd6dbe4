/**
 * `pnpm bench` for the API: requests/s and p99 of authenticated reads beside a bare Hono handler
 * answering the same bodies, measured in the same run, on loopback.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "@sightline/db/testing";
import autocannon from "autocannon";

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = 50;

interface Ready {
  appPort: number;
  barePort: number;
  key: string;
  partnerId: string;
  partnerCustomerId: string;
  accounts: number;
}

async function measure(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections, duration, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

const database = await createTestDatabase(process.env.DATABASE_URL);
const child = fork(fileURLToPath(new URL("./servers.ts", import.meta.url)), {
  env: { ...process.env, BENCH_DATABASE_URL: database.url },
  execArgv: ["--conditions=@sightline/source", "--import", "tsx"],
});
try {
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("message", (message) => resolve(message as Ready));
    child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
  });
  const auth = { authorization: `Bearer ${ready.key}` };
  const cases = [
    { name: `GET /partner/{id}`, path: `/partner/${ready.partnerId}` },
    {
      name: `GET list (${ready.accounts} accounts)`,
      path: `/partner/${ready.partnerId}/customer/${ready.partnerCustomerId}/account`,
    },
    { name: "GET /access-capabilities/aws", path: "/access-capabilities/aws" },
  ];
  const limits = process.env.BENCH_RATE_LIMITS ?? "none";
  console.log(
    `API benchmark: ${connections} connections, ${duration} s per measurement, loopback, rate limits: ${limits}`,
  );
  for (const { name, path } of cases) {
    // Warm both servers (JIT, connection pools) before measuring.
    await autocannon({
      url: `http://127.0.0.1:${ready.appPort}${path}`,
      connections,
      duration: 2,
      headers: auth,
    });
    await autocannon({
      url: `http://127.0.0.1:${ready.barePort}${path}`,
      connections,
      duration: 2,
    });
    const bare = await measure(`http://127.0.0.1:${ready.barePort}${path}`, {});
    const real = await measure(`http://127.0.0.1:${ready.appPort}${path}`, auth);
    console.log(
      `${name.padEnd(28)} sightline ${real.rps.toFixed(0).padStart(6)} req/s p50 ${real.p50} ms p99 ${real.p99} ms | ` +
        `bare ${bare.rps.toFixed(0).padStart(6)} req/s p99 ${bare.p99} ms | ratio ${(real.rps / bare.rps).toFixed(2)}`,
    );
  }
} finally {
  child.kill();
  await database.dispose();
}
