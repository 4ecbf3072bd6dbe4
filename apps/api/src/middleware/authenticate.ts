import { findApiKeyByHash } from "@sightline/db";
import { AppError, type Caller } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { digestsEqual, hashKey } from "../keys.ts";

const bearer = /^Bearer ([A-Za-z0-9_.~+/=-]{1,512})$/;

async function resolveCaller(deps: AppDeps, key: string): Promise<Caller | undefined> {
  const digest = hashKey(key);
  if (digestsEqual(digest, deps.adminKeyHash)) return { kind: "operator" };
  const cached = deps.callerCache.get(digest);
  if (cached) return cached;
  const row = await findApiKeyByHash(deps.db, digest);
  if (!row || !digestsEqual(row.keyHash, digest)) return undefined;
  const caller: Caller | undefined = row.partnerId
    ? { kind: "partner", partnerId: row.partnerId, keyId: row.id }
    : row.customerId
      ? { kind: "customer", customerId: row.customerId, keyId: row.id }
      : undefined;
  if (caller) deps.callerCache.set(digest, caller);
  return caller;
}

/** `Authorization: Bearer <key>`: the operator key, or a stored partner or customer key. */
export function authenticate(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) {
      throw new AppError(
        "UNAUTHENTICATED",
        "Missing Authorization header: send 'Bearer <API key>'",
        { headers: { "www-authenticate": "Bearer" } },
      );
    }
    const match = bearer.exec(header);
    const caller = match?.[1] ? await resolveCaller(deps, match[1]) : undefined;
    if (!caller) {
      throw new AppError("UNAUTHENTICATED", "Invalid API key", {
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      });
    }
    c.set("caller", caller);
    // An answer for one caller must not be kept by a shared cache or the browser.
    c.header("cache-control", "no-store");
    await next();
  };
}
