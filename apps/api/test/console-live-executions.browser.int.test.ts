import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { ExecutionRecord } from "@sightline/domain";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorCustomerAccount } from "./analysis-fixtures.ts";
import { launchBrowser, requireBrowser, screenshot, watchPage } from "./browser.ts";
import { createHarness } from "./harness.ts";

/**
 * The account page shows a running analysis live: its stage and progress as the API tells them,
 * read again while it runs, and its outcome once it has ended. The executions are served in
 * place of the API's (the records' fields have their own tests): the console's polling is under
 * test here.
 */

const browserFound = requireBrowser();
const h = await createHarness();
const server = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 });
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!browserFound) return;
  if (!server.listening) await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

describe.skipIf(!browserFound)("the account page, while an analysis runs", () => {
  it("shows its stage and progress as they move, then its outcome", async () => {
    const customer = await h.newDirectCustomer();
    const accountId = "123456789012";
    await monitorCustomerAccount(h, customer, accountId);
    const executionId = `ondemand-${customer.customerId}-${accountId}-2026-01-31_AB12`;
    const record = (fields: Partial<ExecutionRecord>): ExecutionRecord => ({
      executionId,
      kind: "ondemand",
      status: "running",
      customerId: customer.customerId,
      accountId,
      createdAt: new Date(Date.now() - 90_000).toISOString(),
      startedAt: new Date(Date.now() - 60_000).toISOString(),
      reports: [],
      warnings: [],
      ...fields,
    });
    let current: ExecutionRecord[] = [record({ stage: "collecting" })];
    let reads = 0;

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(20_000);
    const trouble = await watchPage(page);
    await page.route(/\/executions(\?|$)/, async (route) => {
      reads += 1;
      await route.fulfill({ json: current });
    });
    await page.goto(`${base}/console/`);
    await page.getByLabel("API key").fill(customer.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("caller").waitFor();
    await page.evaluate(`location.hash = "#/c/${customer.customerId}/${accountId}/executions"`);

    const stage = page.getByTestId("live-stage");
    const progress = page.getByTestId("live-progress");
    await expect.poll(() => stage.textContent()).toBe("collecting");
    expect(await progress.count()).toBe(0);

    current = [
      record({ stage: "writing", progress: { done: 3000, total: 10000, unit: "principals" } }),
    ];
    await expect.poll(() => stage.textContent()).toBe("writing");
    expect(await progress.textContent()).toContain("3,000 principals of 10,000 principals");
    expect(await progress.locator("progress").getAttribute("value")).toBe("3000");
    await screenshot(page, "10-live-progress");

    current = [
      record({
        stage: "delivering",
        progress: { done: 2 * 2 ** 20, total: 8 * 2 ** 20, unit: "bytes" },
      }),
    ];
    await expect.poll(() => stage.textContent()).toBe("delivering");
    expect(await progress.textContent()).toContain("2.0 MiB of 8.0 MiB");

    current = [record({ status: "succeeded", finishedAt: new Date().toISOString() })];
    const line = page.getByTestId("live-execution");
    await expect.poll(() => line.getAttribute("data-status")).toBe("succeeded");
    expect(await stage.count()).toBe(0);
    expect(reads).toBeGreaterThanOrEqual(4);

    expect(trouble.pageErrors).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);
});
