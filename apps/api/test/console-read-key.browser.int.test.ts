import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  type PageTrouble,
  requireBrowser,
  screenshot,
  watchPage,
} from "./browser.ts";
import { awsAccount, createHarness } from "./harness.ts";

/**
 * The console with a key of one scope: a `read` key sees the tenant's accounts and its audit
 * trail (the console only reads); a key without `read` is told so and shown nothing else.
 */

const browserFound = requireBrowser();
const h = await createHarness();
const server = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 });
let base: string;
let browser: Browser;
let partner: Awaited<ReturnType<typeof h.newPartnerCustomer>>;
const keys: Record<string, string> = {};

beforeAll(async () => {
  if (!browserFound) return;
  if (!server.listening) await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  partner = await h.newPartnerCustomer(await h.newPartner());
  const account = awsAccount("123456789012", partner.partnerId, partner.partnerCustomerId);
  const put = await h.call(
    "PUT",
    `/partner/${partner.partnerId}/customer/${partner.partnerCustomerId}/account/123456789012`,
    { key: partner.key, body: account },
  );
  expect(put.status).toBe(200);
  for (const scope of ["read", "trigger"]) {
    const made = await h.call("POST", `/partner/${partner.partnerId}/api-keys`, {
      key: partner.key,
      body: { name: `console ${scope}`, scopes: [scope] },
    });
    expect(made.status, made.text).toBe(201);
    keys[scope] = made.json.key as string;
  }
  browser = await launchBrowser();
}, 120_000);

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

describe.skipIf(!browserFound)("the console with a key of one scope", () => {
  it("works with a read key: the accounts, and the audit trail of who made them", async () => {
    const { page, trouble } = await signedIn(keys.read ?? "");
    expect(await page.getByTestId("caller").textContent()).toContain("console read: read");
    await page.getByText("123456789012").first().waitFor();
    await page.getByRole("link", { name: "Audit trail" }).click();
    const table = page.getByTestId("audit-events");
    await table.waitFor();
    const text = (await table.textContent()) ?? "";
    expect(text).toContain("POST /partner/{partnerId}/api-keys");
    expect(text).toContain(
      "PUT /partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
    );
    expect(text).toContain("auditorAuthConfig.externalId: changed");
    expect(text).not.toContain(`sightline-ext-${partner.partnerId}`);
    await screenshot(page, "read-key-audit");
    expect(trouble.consoleErrors).toEqual([]);
    expect(trouble.pageErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  });

  it("tells a key without read that it cannot read, and shows nothing else", async () => {
    const { page } = await signedIn(keys.trigger ?? "");
    await page.getByTestId("no-read").waitFor();
    expect(await page.getByRole("link", { name: "Audit trail" }).count()).toBe(0);
    expect(await page.getByText("123456789012").count()).toBe(0);
    await page.close();
  });
});
