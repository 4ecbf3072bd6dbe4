import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

/**
 * Debian's Chromium, driven by playwright-core. Without it the browser tests skip on a
 * developer's machine and fail under CI (`CI` set): `.ci/run` installs it when missing.
 */
const CANDIDATES = [
  process.env.SIGHTLINE_CHROMIUM,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].filter((p): p is string => Boolean(p));

export const chromiumPath = CANDIDATES.find((p) => existsSync(p));

export function requireBrowser(): boolean {
  if (chromiumPath) return true;
  if (process.env.CI)
    throw new Error(
      `No Chromium found (looked at ${CANDIDATES.join(", ")}): CI must run the browser tests. Install Debian's chromium (apt-get install -y chromium) or set SIGHTLINE_CHROMIUM.`,
    );
  return false;
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error("No Chromium: call requireBrowser() first");
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // No GPU, no sandbox (root in a container), and no calls home: this machine's network is closed.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** What a page said that a test must see empty: console errors, page errors, CSP violations. */
export interface PageTrouble {
  consoleErrors: { text: string; url: string }[];
  pageErrors: string[];
  cspViolations: () => Promise<string[]>;
}

/**
 * An answer the console expects and shows, which Chromium logs as an error all the same: an
 * account's event source is 404 until its first rotate (the console says "events off").
 */
const expectedFailure = (text: string, url: string) =>
  text.includes("status of 404") && new URL(url, "http://x").pathname.endsWith("/event-source");

export async function watchPage(page: Page): Promise<PageTrouble> {
  const trouble = {
    consoleErrors: [] as { text: string; url: string }[],
    pageErrors: [] as string[],
  };
  page.on("console", (message) => {
    const { url } = message.location();
    if (message.type() === "error" && !expectedFailure(message.text(), url))
      trouble.consoleErrors.push({ text: message.text(), url });
  });
  page.on("pageerror", (error) => trouble.pageErrors.push(String(error)));
  // Runs before the page's own script, outside its CSP: records every violation the page has.
  await page.addInitScript({
    content: `window.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__csp.push(e.violatedDirective + " " + e.blockedURI));`,
  });
  return { ...trouble, cspViolations: () => page.evaluate<string[]>("window.__csp") };
}

/** Screenshots are kept as test artefacts in `apps/api/test-results/console/`. */
export const ARTEFACTS = path.resolve(import.meta.dirname, "..", "test-results", "console");

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTEFACTS, { recursive: true });
  const file = path.join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
