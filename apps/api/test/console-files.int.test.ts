import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { consoleDir } from "@sightline/console";
import { describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const get = (path: string) => h.app.request(path);

describe("the console's files", () => {
  it("serves the page under a CSP that lets it run only its own files and call only the API", async () => {
    const res = await get("/console/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain("unsafe");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const html = await res.text();
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(html).not.toMatch(/<script(?![^>]*src=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    const script = await get(scripts[0] as string);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(script.headers.get("cache-control")).toContain("immutable");
  });

  it("sends /console to /console/ and refuses names outside its assets", async () => {
    const res = await get("/console");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/console/");
    for (const path of [
      "/console/assets/..%2F..%2Fpackage.json",
      "/console/assets/.env",
      "/console/assets/nothing.js",
      "/console/assets/index.html",
    ])
      expect((await get(path)).status, path).toBe(404);
  });

  it("has built assets that name no other origin", async () => {
    const assets = await readdir(fileURLToPath(new URL("assets/", consoleDir)));
    expect(assets.some((name) => name.endsWith(".js"))).toBe(true);
    for (const name of assets.filter((n) => n.endsWith(".js"))) {
      const body = await (await get(`/console/assets/${name}`)).text();
      // Namespace URIs (SVG, XHTML, MathML) are names, not requests.
      const origins = [...body.matchAll(/https?:\/\/[a-z0-9.-]+/gi)]
        .map((m) => m[0])
        .filter((o) => !/^http:\/\/www\.w3\.org$/.test(o));
      expect(origins).toEqual([]);
    }
  });
});
