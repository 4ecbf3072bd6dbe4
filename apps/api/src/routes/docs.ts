import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../context.ts";

const assetDir = path.dirname(
  createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"),
);

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sightline API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script></body></html>`;
const init = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#ui" });`;
// A Map, not an object literal: a name like `__proto__` or `toString` must not find the prototype's.
const assets = new Map([
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
]);

/** `/openapi.json` and interactive docs at `/docs`, served from local files (works offline). */
export function registerDocs(app: OpenAPIHono<AppEnv>, document: object): void {
  const json = JSON.stringify(document);
  // The documentation page runs only its own files, and no other site may frame it.
  app.use(
    "/docs/*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: "DENY",
    }),
  );
  app.get("/openapi.json", (c) => c.body(json, 200, { "content-type": "application/json" }));
  app.get("/docs", (c) => c.html(page));
  app.get("/docs/assets/init.js", (c) => c.body(init, 200, { "content-type": "text/javascript" }));
  const cache = new Map<string, Promise<Buffer>>();
  app.get("/docs/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = assets.get(file);
    if (!type) return c.notFound();
    let content = cache.get(file);
    if (!content) {
      content = readFile(path.join(assetDir, file));
      cache.set(file, content);
    }
    return c.body(new Uint8Array(await content), 200, {
      "content-type": type,
      "cache-control": "public, max-age=86400",
    });
  });
}
