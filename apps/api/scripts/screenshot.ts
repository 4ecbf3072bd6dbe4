/**
 * The README's picture, docs/images/console.png: starts the demo (scripts/demo.ts, on free ports
 * with a data folder and a fresh database of its own, on DATABASE_URL's server when set, else on
 * an embedded Postgres), has a
 * partner analyse the demo account, make bob an IAM admin and analyse again, then signs into the
 * console in Chromium with the partner's key and photographs the account's principals with bob's
 * admin open. Run by hand after the console changes (not by the test command):
 * `pnpm --filter @sightline/api screenshot` (the API built first: `pnpm build`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "@sightline/db/testing";
import { chromium } from "playwright-core";
import { freePort } from "./free-port.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const output = path.join(repoRoot, "docs/images/console.png");
const PARTNER = "P123456";
const CUSTOMER = "acme-prod-01";
const ACCOUNT = "210987654321";

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const database = await createTestDatabase(process.env.DATABASE_URL);
const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-screenshot-"));
await chmod(dataDir, 0o755);
const [apiPort, controlPort] = [await freePort(), await freePort()];
const api = `http://127.0.0.1:${apiPort}`;
const demo: ChildProcess = spawn(
  process.execPath,
  ["--import", "tsx", "--conditions=@sightline/source", "apps/api/scripts/demo.ts"],
  {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      SIGHTLINE_DATA_DIR: dataDir,
      PORT: String(apiPort),
      SIGHTLINE_DEMO_CONTROL_PORT: String(controlPort),
      SIGHTLINE_DRAIN_SECONDS: "5",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  },
);

try {
  await until("the demo ready", async () =>
    (await fetch(`${api}/readyz`)).status === 200 ? true : undefined,
  );
  const admin = (await readFile(path.join(dataDir, "admin-key"), "utf8")).trim();
  const call = async (method: string, route: string, key: string, body?: unknown) => {
    const response = await fetch(`${api}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok)
      throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const key = (await call("POST", "/admin/api-keys", admin, { partnerId: PARTNER })).key as string;
  const account = `/partner/${PARTNER}/customer/${CUSTOMER}/account/${ACCOUNT}`;
  const ids = { partnerId: PARTNER, partnerCustomerId: CUSTOMER };
  await call("PUT", `/partner/${PARTNER}`, key, { partnerId: PARTNER });
  await call("PUT", `/partner/${PARTNER}/customer/${CUSTOMER}`, key, {
    ...ids,
    subscriptionPlanName: "Enterprise",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  await call("PUT", account, key, {
    ...ids,
    accountId: ACCOUNT,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: {
      roleArn: `arn:aws:iam::${ACCOUNT}:role/SightlineAuditor`,
      externalId: "acme-7f3e",
    },
  });
  const analyse = async () => {
    const { executionId } = await call("POST", `${account}/analysis`, key, {
      ...ids,
      accountId: ACCOUNT,
    });
    const status = await until(`execution ${executionId}`, async () => {
      const { status } = await call("GET", `/executions/${executionId}`, key);
      return status === "queued" || status === "running" ? undefined : status;
    });
    if (status !== "succeeded") throw new Error(`execution ${executionId} ended ${status}`);
  };
  await analyse();
  await fetch(`http://127.0.0.1:${controlPort}/make-admin/bob`, { method: "POST" });
  await analyse();

  const browser = await chromium.launch({
    executablePath: process.env.SIGHTLINE_CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 760 } });
    await page.goto(`${api}/console/`);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("caller").waitFor();
    await page.evaluate(`location.hash = "#/p/${PARTNER}/${CUSTOMER}/${ACCOUNT}/principals"`);
    await page.getByRole("listbox", { name: "Principals" }).waitFor();
    await page.getByLabel("IAM admin").selectOption("yes");
    await page.getByRole("option", { name: /bob/ }).click();
    await page.getByTestId("granted-by").waitFor();
    await page.getByText("Loading access").waitFor({ state: "detached" });
    await page.screenshot({ path: output });
    process.stderr.write(`wrote ${path.relative(repoRoot, output)}\n`);
  } finally {
    await browser.close();
  }
} finally {
  const exited = new Promise((resolve) => demo.once("exit", resolve));
  demo.kill("SIGTERM");
  await exited;
  await database.dispose();
  await rm(dataDir, { recursive: true, force: true });
}
