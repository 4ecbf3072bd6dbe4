import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { type FakeAccountModel, smallAccount } from "@sightline/aws-fake";
import { ChangeList, PrincipalList, ResourceAccessPathsResponse } from "@sightline/domain";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorCustomerAccount, storeCustomerSnapshots } from "./analysis-fixtures.ts";
import {
  launchBrowser,
  type PageTrouble,
  requireBrowser,
  screenshot,
  watchPage,
} from "./browser.ts";
import { startE2e } from "./e2e-pipeline.ts";

/**
 * The console in a real Chromium against the real API over HTTP: a partner signs in, sees its
 * accounts only, finds an IAM admin's granting policy, draws the access paths of the k9 golden
 * scenario, and sees a change. No console error, no CSP violation; a screenshot of each view.
 */

const browserFound = requireBrowser();
// A copy the test changes between two analyses, as an administrator would change the account.
const model: { -readonly [K in keyof FakeAccountModel]: FakeAccountModel[K] } = {
  ...smallAccount.model,
};
const { h, accountId, configure, triggerAndWait } = await startE2e(model);

const golden = JSON.parse(
  readFileSync(
    path.resolve(
      import.meta.dirname,
      "../../../packages/engine/test/fixtures/paths/golden-five-accounts.json",
    ),
    "utf8",
  ),
) as { accounts: { accountId: string; authorizationDetails: unknown }[] };
const TARGET = "arn:aws:iam::333333333333:role/333-dst-1";

let base: string;
let browser: Browser;
let partner: Awaited<ReturnType<typeof configure>>;
let other: Awaited<ReturnType<typeof configure>>;
let goldenCustomer: string;
const server = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 });

/** The golden five accounts as one customer of the partner, each with a stored snapshot. */
async function addGoldenCustomer(p: { partnerId: string; key: string }) {
  const tenant = `golden-${randomBytes(3).toString("hex")}`;
  const put = await h.call("PUT", `/partner/${p.partnerId}/customer/${tenant}`, {
    key: p.key,
    body: {
      partnerId: p.partnerId,
      partnerCustomerId: tenant,
      subscriptionPlanName: "Team",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    },
  });
  expect(put.status).toBe(200);
  const pc = { ...p, partnerCustomerId: tenant, customerId: put.json.customerId as string };
  await storeCustomerSnapshots(
    h,
    pc,
    Object.fromEntries(golden.accounts.map((a) => [a.accountId, a.authorizationDetails])),
  );
  return tenant;
}

beforeAll(async () => {
  if (!browserFound) return;
  if (!server.listening) await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  partner = await configure(false);
  expect((await triggerAndWait(partner)).status).toBe("succeeded");
  // alice becomes an IAM admin: the second analysis finds the change.
  const changed = smallAccount.withAdministratorAccess(model, "alice");
  if (!changed) throw new Error("the small account has no user alice");
  model.authorizationDetails = changed;
  expect((await triggerAndWait(partner)).status).toBe("succeeded");
  goldenCustomer = await addGoldenCustomer(partner);
  other = await configure(false);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

const accountHash = (tenant: string, account: string, view: string, p = partner) =>
  `#/p/${p.partnerId}/${tenant}/${account}/${view}`;

async function signedIn(key: string): Promise<{ page: Page; trouble: PageTrouble }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // A step that cannot happen fails naming itself, well inside the test's own time.
  page.setDefaultTimeout(20_000);
  const trouble = await watchPage(page);
  await page.goto(`${base}/console/`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("caller").waitFor();
  return { page, trouble };
}

/** Changes the view inside the page (the key is in the page's memory: no reload). */
const go = (page: Page, hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);

/** Every change of the partner's account, page after page. */
async function allChanges(p: { base: string; key: string }) {
  const changes: ChangeList["changes"] = [];
  let cursor: string | undefined;
  do {
    const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = ChangeList.parse(
      (await h.call("GET", `${p.base}/changes?limit=1000${query}`, { key: p.key })).json,
    );
    changes.push(...page.changes);
    cursor = page.nextCursor;
  } while (cursor);
  return changes;
}

const textOf = async (locator: ReturnType<Page["locator"]>) => (await locator.textContent()) ?? "";

describe.skipIf(!browserFound)("the console in Chromium", () => {
  it("shows a partner its own accounts and views, without a console error or a CSP violation", async () => {
    const { page, trouble } = await signedIn(partner.key);
    const response = await page.request.get(`${base}/console/`);
    expect(response.headers()["content-security-policy"]).toContain("script-src 'self'");

    // The tenants: this partner's two customers and their accounts, nobody else's.
    await expect.poll(() => page.getByText(`Customer ${goldenCustomer}`).count()).toBe(1);
    await page.getByText("succeeded").first().waitFor();
    const text = await textOf(page.locator("main"));
    expect(text).toContain(`Customer ${partner.tenant}`);
    expect(text).toContain(accountId);
    expect(text).toContain("333333333333");
    expect(text).not.toContain(other.tenant);
    expect(text).not.toContain(other.partnerId);
    await screenshot(page, "1-accounts");

    // Executions, with where the reports went.
    await go(page, accountHash(partner.tenant, accountId, "executions"));
    await page.getByRole("columnheader", { name: "Delivered" }).waitFor();
    expect(await page.getByText("succeeded").count()).toBe(2);
    await screenshot(page, "2-executions");

    // Principals: the IAM admins, and what makes the Deployer role one.
    await go(page, accountHash(partner.tenant, accountId, "principals"));
    await page.getByRole("listbox", { name: "Principals" }).waitFor();
    await page.getByLabel("IAM admin").selectOption("yes");
    await page.getByRole("option", { name: /Deployer/ }).click();
    const granted = page.getByTestId("granted-by");
    await granted.waitFor();
    expect(await textOf(granted)).toContain("AdministratorAccess");
    await screenshot(page, "3-principals");

    // The last principal is reachable by keyboard: End, then Enter, opens it.
    await page.getByLabel("IAM admin").selectOption("");
    const all = PrincipalList.parse(
      (await h.call("GET", `${partner.base}/principals?limit=1000`, { key: partner.key })).json,
    ).principals;
    expect(all.length).toBeGreaterThan(3);
    await expect
      .poll(() => textOf(page.getByTestId("principal-count")))
      .toBe(`${all.length} principals`);
    const list = page.getByRole("listbox", { name: "Principals" });
    await list.focus();
    await list.press("End");
    await list.press("Enter");
    const last = all.at(-1);
    await expect
      .poll(() => textOf(page.getByTestId("principal-detail").locator("code").first()))
      .toBe(last?.principalArn);

    // Who can read the reports bucket.
    await go(page, accountHash(partner.tenant, accountId, "who-can"));
    await page.getByLabel("Resource", { exact: true }).fill("reports");
    await page.getByRole("button", { name: /arn:aws:s3:::reports/ }).click();
    await page.getByTestId("who-can").waitFor();
    expect(await textOf(page.getByTestId("who-can"))).toContain(
      `arn:aws:iam::${accountId}:role/Deployer`,
    );
    await screenshot(page, "4-who-can");

    // The changes: alice became an IAM admin.
    await go(page, accountHash(partner.tenant, accountId, "changes"));
    const changes = page.getByTestId("changes");
    await changes.waitFor();
    const changeText = await textOf(changes);
    expect(changeText).toContain("iam-admin-gained");
    expect(changeText).toContain(`arn:aws:iam::${accountId}:user/alice`);
    // One line for alice's admin and every capability it brought, which unfolds by keyboard.
    const ofAlice = (await allChanges(partner)).filter((c) => c.principalName === "alice");
    expect(ofAlice.length).toBeGreaterThan(2);
    const group = page.getByTestId("change-group");
    expect(await group.count()).toBe(1);
    expect(await textOf(group)).toContain(
      `alice became an IAM admin — granted by AdministratorAccess +${ofAlice.length - 1} capability changes`,
    );
    const unfold = group.getByRole("button", { name: `+${ofAlice.length - 1} capability changes` });
    expect(await unfold.getAttribute("aria-expanded")).toBe("false");
    const folded = page.getByTestId("change-group-rows").locator("tr");
    expect(await folded.count()).toBe(0);
    await screenshot(page, "5-changes");
    // The view's first stop after the account's tabs.
    await page.getByRole("navigation", { name: "Account views" }).getByRole("link").last().focus();
    await page.keyboard.press("Tab");
    const controls = await unfold.getAttribute("aria-controls");
    expect(await page.evaluate(`document.activeElement?.getAttribute("aria-controls")`)).toBe(
      controls,
    );
    await page.keyboard.press("Enter");
    await expect.poll(() => unfold.getAttribute("aria-expanded")).toBe("true");
    expect(await folded.count()).toBe(ofAlice.length);
    await page.keyboard.press("Space");
    await expect.poll(() => folded.count()).toBe(0);

    expect(trouble.pageErrors).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);

  it("draws the golden scenario's access paths as endpoint 12 answers them", async () => {
    const { page, trouble } = await signedIn(partner.key);
    await go(page, accountHash(goldenCustomer, "333333333333", "paths"));
    const resource = page.getByLabel("Resource", { exact: true });
    await resource.fill(TARGET);
    await resource.press("Enter");
    await page.getByRole("button", { name: "Show access paths" }).click();
    await page.getByTestId("graph-svg").waitFor();

    const body = {
      resourceIds: [TARGET],
      principalAccessCapabilities: ["use-resource"],
      service: "STS",
      accessCapabilityOperator: "OR",
      maxAccessPathNodes: 10,
    };
    const res = await h.call(
      "POST",
      `/partner/${partner.partnerId}/customer/${goldenCustomer}/account/333333333333/resource-access-paths`,
      { key: partner.key, body },
    );
    expect(res.status).toBe(200);
    const paths = ResourceAccessPathsResponse.parse(res.json).resourceAccessPaths[TARGET]
      ?.accessPaths;
    expect(paths?.length).toBeGreaterThan(3);
    // Endpoint 12's graph: each path's first node reaches the resource, each later one the one before.
    const nodes = new Set([TARGET]);
    const edges = new Set<string>();
    for (const p of paths ?? [])
      p.nodes.forEach((node, i) => {
        nodes.add(node);
        edges.add(`${node} -> ${i === 0 ? TARGET : p.nodes[i - 1]}`);
      });
    expect(nodes.has("444444444444")).toBe(true);

    const shownNodes = await page
      .getByTestId("graph-nodes")
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));
    const shownEdges = await page
      .getByTestId("graph-edges")
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((r) => `${r.getAttribute("data-from")} -> ${r.getAttribute("data-to")}`),
      );
    expect(new Set(shownNodes)).toEqual(nodes);
    expect(shownNodes).toHaveLength(nodes.size);
    expect(new Set(shownEdges)).toEqual(edges);
    expect(shownEdges).toHaveLength(edges.size);
    // The drawing holds the same: one box per node, one line per edge.
    expect(await page.locator("svg.graph g.node").count()).toBe(nodes.size);
    expect(await page.locator("svg.graph path.edge").count()).toBe(edges.size);
    await screenshot(page, "6-access-paths");

    expect(trouble.pageErrors).toEqual([]);
    // The golden accounts have snapshots but no stored analysis: the resource list answers 409.
    for (const error of trouble.consoleErrors) {
      expect(error.text).toContain("409");
      expect(error.url).toContain("/resources");
    }
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);

  it("keeps a 10,000-principal list to a few dozen rows, and reaches its last by keyboard", async () => {
    const { page, trouble } = await signedIn(partner.key);
    // The principals' pages of a large account, served in place of the API's (the console's
    // windowing is under test here; the API's paging has its own tests).
    const total = 10_000;
    const name = (i: number) => `r${String(i).padStart(5, "0")}`;
    const arn = (i: number) => `arn:aws:iam::${accountId}:role/${name(i)}`;
    let requests = 0;
    await page.route(/\/principals\?/, async (route) => {
      requests += 1;
      const url = new URL(route.request().url());
      const after = url.searchParams.get("cursor");
      const start = after ? Number(after) : 0;
      const limit = Number(url.searchParams.get("limit"));
      const end = Math.min(total, start + limit);
      const principals = [];
      for (let i = start; i < end; i++)
        principals.push({
          principalArn: arn(i),
          principalName: name(i),
          principalType: "IAMRole",
          iamAdmin: "no",
          iamAdminGrantedBy: [],
        });
      await route.fulfill({
        json: {
          executionId: "e",
          analysisTime: new Date().toISOString(),
          principals,
          ...(end < total ? { nextCursor: String(end) } : {}),
        },
      });
    });
    await go(page, accountHash(partner.tenant, accountId, "principals"));
    const list = page.getByRole("listbox", { name: "Principals" });
    await list.locator("[role=option]").first().waitFor();
    const rendered = () => list.locator("[role=option]").count();
    expect(await rendered()).toBeGreaterThan(5);
    expect(await rendered()).toBeLessThan(100);
    await list.focus();
    await list.press("End");
    await expect
      .poll(() => textOf(page.getByTestId("principal-count")))
      .toBe(`${total} principals`);
    await expect.poll(() => list.getAttribute("aria-activedescendant")).toBe(`row-${total - 1}`);
    const last = list.locator(`[data-id="${arn(total - 1)}"]`);
    await last.waitFor();
    expect(await last.isVisible()).toBe(true);
    expect(await rendered()).toBeLessThan(100);
    expect(requests).toBe(total / 500);
    await list.press("Enter");
    await expect
      .poll(() => textOf(page.getByTestId("principal-detail").locator("h2")))
      .toBe(name(total - 1));
    await screenshot(page, "8-principals-10000");
    expect(trouble.pageErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);

  it("shows a direct customer its own accounts, and says access paths are a partner's", async () => {
    const customer = await h.newDirectCustomer();
    await monitorCustomerAccount(h, customer, "123456789012");
    const { page, trouble } = await signedIn(customer.key);
    expect(await textOf(page.getByTestId("caller"))).toContain(`customer ${customer.customerId}`);
    await page.getByText("Never analysed").waitFor();
    const main = await textOf(page.locator("main"));
    expect(main).toContain(`Customer ${customer.customerId}`);
    expect(main).toContain("123456789012");
    expect(main).not.toContain(partner.partnerId);
    await go(page, `#/c/${customer.customerId}/123456789012/paths`);
    await page.getByText("Access paths are answered for a partner's accounts").waitFor();
    await screenshot(page, "9-direct-customer");
    expect(trouble.pageErrors).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);

  it("never shows another partner's account, even when its address is typed in", async () => {
    const { page, trouble } = await signedIn(other.key);
    await go(page, accountHash(partner.tenant, accountId, "principals", partner));
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await textOf(alert)).toContain("HTTP 403");
    expect(await page.locator("[role=listbox] [role=option]").count()).toBe(0);
    await go(page, accountHash(partner.tenant, accountId, "executions", partner));
    await page.getByRole("alert").waitFor();
    expect(await textOf(page.locator("main"))).not.toContain("succeeded");
    await screenshot(page, "7-other-tenant-refused");
    expect(trouble.pageErrors).toEqual([]);
    for (const error of trouble.consoleErrors) expect(error.text).toContain("403");
    expect(await trouble.cspViolations()).toEqual([]);
    await page.close();
  }, 120_000);
});
