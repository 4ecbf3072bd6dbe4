import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { consoleDir } from "@sightline/console";
import { AppError } from "@sightline/domain";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../context.ts";

const root = fileURLToPath(consoleDir);

// The console's files are named by their content (`index-<hash>.js`): one file name, one body.
const TYPES = new Map([
  [".js", "text/javascript; charset=utf-8"],
  [".css", "text/css; charset=utf-8"],
  [".svg", "image/svg+xml"],
  [".png", "image/png"],
]);
const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|svg|png)$/;

/**
 * The read-only console at `/console/`: the static files `apps/console` builds, served with a
 * Content-Security-Policy that lets the page run only its own script and style and talk only to
 * this API. The page needs no key to load; every read it makes carries the key the user enters.
 */
export function registerConsole(app: OpenAPIHono<AppEnv>): void {
  app.use(
    "/console/*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
      // The app sets Strict-Transport-Security itself, and only when it serves HTTPS.
      strictTransportSecurity: false,
    }),
  );
  app.get("/console", (c) => c.redirect("/console/", 301));
  const files = new Map<string, Promise<Buffer>>();
  const read = (name: string) => {
    let found = files.get(name);
    if (!found) {
      found = readFile(path.join(root, name));
      found.catch(() => files.delete(name));
      files.set(name, found);
    }
    return found;
  };
  app.get("/console/", async (c) => {
    const page = await read("index.html").catch(() => undefined);
    if (!page)
      throw new AppError(
        "UNAVAILABLE",
        "The console is not built: run `npx -y pnpm@10 build` (or `start`, which builds it)",
      );
    return c.body(new Uint8Array(page), 200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
    });
  });
  app.get("/console/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = TYPES.get(path.extname(file));
    if (!ASSET_NAME.test(file) || !type) throw new AppError("NOT_FOUND", `No console file ${file}`);
    const content = await read(path.join("assets", file)).catch(() => undefined);
    if (!content) throw new AppError("NOT_FOUND", `No console file ${file}`);
    return c.body(new Uint8Array(content), 200, {
      "content-type": type,
      "cache-control": "public, max-age=31536000, immutable",
    });
  });
}
