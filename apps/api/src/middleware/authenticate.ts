import { type ApiKeyRow, findApiKeyByHash, touchApiKey } from "@sightline/db";
import { type ApiClient, AppError, type Permission } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { digestsEqual, hashKey } from "../keys.ts";
import { enforceRateLimit } from "../rate-limits.ts";

const bearer = /^Bearer ([A-Za-z0-9_.~+/=-]{1,512})$/;

/** The form of every key Sightline issues (`generateApiKey`): anything else is refused unread. */
const issuedKey = /^sl_[A-Za-z0-9_-]{43}$/;

const INVALID = "Invalid API key";

/** The client a stored key acts as, or why it is refused. */
function clientOf(row: ApiKeyRow): ApiClient | string {
  if (row.revokedAt) return "API key was revoked";
  const holder = {
    keyId: row.id,
    keyName: row.name,
    permissions: row.permissions as Permission[],
    expiresAt: row.expiresAt,
  };
  if (row.partnerId) return { kind: "partner", partnerId: row.partnerId, ...holder };
  if (row.customerId) return { kind: "customer", customerId: row.customerId, ...holder };
  return INVALID;
}

async function findApiClient(
  deps: AppDeps,
  digest: string,
  key: string,
): Promise<ApiClient | string> {
  if (digestsEqual(digest, deps.adminKeyHash)) return { kind: "operator" };
  if (!issuedKey.test(key)) return INVALID;
  const cached = deps.apiClientCache.get(digest);
  if (cached) return cached;
  // A key just found unknown or revoked is not looked up again for a while: guessing costs no queries.
  const refused = deps.apiClientCache.unknownReason(digest);
  if (refused) return refused;
  const generation = deps.apiClientCache.generation;
  const row = await findApiKeyByHash(deps.db, digest);
  const client = row && digestsEqual(row.keyHash, digest) ? clientOf(row) : INVALID;
  if (typeof client === "string") deps.apiClientCache.setUnknown(digest, client);
  else deps.apiClientCache.set(digest, client, generation);
  return client;
}

/** Writes a key's last use, at most once a minute per process; a failure only warns. */
function touch(deps: AppDeps, keyId: string): void {
  if (!deps.apiClientCache.shouldTouch(keyId)) return;
  const now = new Date();
  touchApiKey(deps.db, keyId, now, new Date(now.getTime() - 60_000)).catch((err: unknown) =>
    deps.logger.warn({ err, keyId }, "could not record an API key's last use"),
  );
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
    const found = key && digest ? await findApiClient(deps, digest, key) : INVALID;
    const expiresAt = typeof found !== "string" && found.kind !== "operator" && found.expiresAt;
    if (typeof found === "string" || !digest || (expiresAt && expiresAt.getTime() <= Date.now())) {
      const message =
        typeof found === "string"
          ? found
          : `API key expired at ${expiresAt ? expiresAt.toISOString() : ""}`;
      throw new AppError("UNAUTHENTICATED", message, { details: { credentials: "invalid" } });
    }
    const limit = deps.rateLimits?.perKey?.take(digest);
    if (limit) enforceRateLimit(c, limit, "Too many requests with this API key");
    c.set("apiClient", found);
    if (found.kind !== "operator") touch(deps, found.keyId);
    // An answer for one client must not be kept by a shared cache or the browser.
    c.header("cache-control", "no-store");
    await next();
  };
}
