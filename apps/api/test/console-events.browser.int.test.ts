import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { smallAccount } from "@sightline/aws-fake";
import { rawQuery } from "@sightline/db";
import { ExecutionRecord, RotatedEventSource } from "@sightline/domain";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  type PageTrouble,
  requireBrowser,
  screenshot,
  watchPage,
} from "./browser.ts";
import { startE2e } from "./e2e-pipeline.ts";

/**
 * The account's events in the console, seen with a read-only key: "events off" before the first
 * rotate; then what the event source received and the event step that applied bob's becoming an
 * admin; a warning once the account has been silent for more than a day.
 */

const browserFound = requireBrowser();
const { h, fake, configure, triggerAndWait } = await startE2e(structuredClone(smallAccount.model));
const server = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 });
let base: string;
let browser: Browser;
let partner: Awaited<ReturnType<typeof configure>>;
let readKey: string;

beforeAll(async () => {
  if (!browserFound) return;
  if (!server.listening) await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  partner = await configure(false);
  expect((await triggerAndWait(partner)).status).toBe("succeeded");
  const made = await h.call("POST", `/partner/${partner.partnerId}/api-keys`, {
    key: partner.key,
    body: { name: "watcher", scopes: ["read"] },
  });
  expect(made.status, made.text).toBe(201);
  readKey = made.json.key as string;
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

async function signedIn(key: string): Promise<{ page: Page; trouble: PageTrouble }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(20_000);
  const trouble = await watchPage(page);
  await page.goto(`${base}/console/`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("caller").waitFor();
  return { page, trouble };
}

/** The account's events view, opened afresh (a hash change reads the API again). */
async function openEvents(page: Page, view = "events") {
  await page.evaluate(`location.hash = "#/"`);
  await page.getByText(partner.tenant).first().waitFor();
  const hash = `#/p/${partner.partnerId}/${partner.tenant}/${smallAccount.ACCOUNT_ID}/${view}`;
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.getByTestId("event-health").waitFor();
}

const textOf = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).textContent()) ?? "";

/** The account's event step, once it has succeeded. */
async function succeededStep(): Promise<ExecutionRecord> {
  let step: ExecutionRecord | undefined;
  await expect
    .poll(
      async () => {
        const list = await h.call("GET", `${partner.base}/executions`, { key: readKey });
        step = ExecutionRecord.array()
          .parse(list.json)
          .find((e) => e.kind === "event" && e.status === "succeeded");
        return step !== undefined;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return step as ExecutionRecord;
}

describe.skipIf(!browserFound)("the account's events in the console", () => {
  it("says events are off before the first rotate, to a read-only key", async () => {
    const { page, trouble } = await signedIn(readKey);
    await openEvents(page);
    expect(await textOf(page, "event-health")).toContain("Events off");
    await page.getByTestId("events-off").waitFor();
    expect(await textOf(page, "events-off")).toContain("next daily analysis");
    expect(trouble.pageErrors).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  });

  it("shows what arrived and the event step that applied it, then warns of a silent account", async () => {
    const rotated = await h.call("POST", `${partner.base}/event-source/rotate`, {
      key: partner.key,
    });
    const { token } = RotatedEventSource.parse(rotated.json);
    const madeAdmin = fake.control.makeAdmin("bob");
    const posted = await h.call("POST", "/events/aws", {
      body: madeAdmin,
      headers: { "x-sightline-event-token": token },
    });
    expect(posted.status).toBe(202);
    const step = await succeededStep();

    const { page, trouble } = await signedIn(readKey);
    await openEvents(page);
    await page.getByTestId("event-steps").waitFor();
    const health = await textOf(page, "event-health");
    expect(health).toContain("Events on: 1 received, 1 applied");
    expect(await page.getByTestId("event-silence").count()).toBe(0);
    const counters = page.getByTestId("event-source");
    expect(await counters.getByRole("row", { name: /^Received/ }).textContent()).toBe("Received1");
    expect(await counters.getByRole("row", { name: /^Applied/ }).textContent()).toBe("Applied1");
    const steps = await textOf(page, "event-steps");
    expect(steps).toContain(step.executionId);
    expect(steps).toContain("succeeded");
    expect(steps).toContain(madeAdmin.detail.eventID);
    await screenshot(page, "events-1-applied");

    // Two days without an event: every view of the account says so.
    await h.deps.db.execute(
      rawQuery(
        "update event_sources set last_event_at = now() - interval '50 hours' where customer_id = $1 and account_id = $2",
        [partner.customerId, smallAccount.ACCOUNT_ID],
      ),
    );
    await openEvents(page, "principals");
    await page.getByTestId("event-silence").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("No event for 2 days");
    await screenshot(page, "events-2-silent");
    expect(trouble.pageErrors).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);
});
