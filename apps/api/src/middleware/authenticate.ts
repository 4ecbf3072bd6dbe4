import { findApiKeyByHash } from "@sightline/db";
import { type ApiClient, AppError } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { digestsEqual, hashKey } from "../keys.ts";
import { enforceRateLimit } from "../rate-limits.ts";

const bearer = /^Bearer ([A-Za-z0-9_.~+/=-]{1,512})$/;

/** The form of every key Sightline issues (`generateApiKey`): anything else is refused unread. */
const issuedKey = /^sl_[A-Za-z0-9_-]{43}$/;

async function findApiClient(
  deps: AppDeps,
  digest: string,
  key: string,
): Promise<ApiClient | undefined> {
  if (digestsEqual(digest, deps.adminKeyHash)) return { kind: "operator" };
  if (!issuedKey.test(key)) return undefined;
  const cached = deps.apiClientCache.get(digest);
  if (cached) return cached;
  // A key just found unknown is not looked up again for a while: guessing costs no queries.
  if (deps.apiClientCache.isUnknown(digest)) return undefined;
  const generation = deps.apiClientCache.generation;
  const row = await findApiKeyByHash(deps.db, digest);
  if (!row || !digestsEqual(row.keyHash, digest)) {
    deps.apiClientCache.setUnknown(digest);
    return undefined;
  }
  const client: ApiClient | undefined = row.partnerId
    ? { kind: "partner", partnerId: row.partnerId, keyId: row.id }
    : row.customerId
      ? { kind: "customer", customerId: row.customerId, keyId: row.id }
      : undefined;
  if (client) deps.apiClientCache.set(digest, client, generation);
  return client;
}

/** `Authorization: Bearer <key>`: the operator key, or a stored partner or customer key. */
export function authenticate(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) {
      throw new AppError(
        "UNAUTHENTICATED",
        "Missing Authorization header: send 'Bearer <API key>'",
        { details: { credentials: "missing" } },
      );
    }
    const key = bearer.exec(header)?.[1];
    const digest = key ? hashKey(key) : undefined;
    const client = key && digest ? await findApiClient(deps, digest, key) : undefined;
    if (!client || !digest) {
      throw new AppError("UNAUTHENTICATED", "Invalid API key", {
        details: { credentials: "invalid" },
      });
    }
    const limit = deps.rateLimits?.perKey?.take(digest);
    if (limit) enforceRateLimit(c, limit, "Too many requests with this API key");
    c.set("apiClient", client);
    // An answer for one client must not be kept by a shared cache or the browser.
    c.header("cache-control", "no-store");
    await next();
  };
}
