import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP } from "node:net";
import {
  type AlertSettings,
  isAllowedHost,
  type ResolvedAddress,
  type Resolver,
  systemResolver,
} from "./alert-settings.ts";
import { internalAddressReason, internalHostReason, normalizeHost } from "./internal-addresses.ts";

const ALLOW_HINT =
  "Sightline never connects inside a network; the operator may allow a named host with SIGHTLINE_ALERT_ALLOWED_HOSTS";

/** A webhook URL Sightline refuses to call, and why (the message names the rule, not a secret). */
export class RefusedWebhookUrl extends Error {
  readonly code = "EREFUSEDHOST";
}

async function resolveAll(resolve: Resolver, host: string): Promise<ResolvedAddress[]> {
  try {
    return await resolve(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RefusedWebhookUrl(
      `host ${host} does not resolve${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
}

/** Throws `RefusedWebhookUrl` unless every address is public. */
function requirePublic(host: string, addresses: readonly ResolvedAddress[]): void {
  if (addresses.length === 0) throw new RefusedWebhookUrl(`host ${host} has no address`);
  for (const { address } of addresses) {
    const reason = internalAddressReason(address);
    if (reason)
      throw new RefusedWebhookUrl(
        `must not point inside a network: ${host} resolves to ${address}, ${reason}; ${ALLOW_HINT}`,
      );
  }
}

/**
 * What Sightline checks of a webhook URL, at configuration and again before each delivery: an
 * allowed host passes; otherwise the URL must be https:// and its host public, by its text and
 * by every address it resolves to now. Throws `RefusedWebhookUrl`.
 */
export async function checkWebhookUrl(text: string, settings: AlertSettings = {}): Promise<void> {
  const url = new URL(text);
  if (isAllowedHost(url, settings.allowedHosts)) return;
  if (url.protocol !== "https:")
    throw new RefusedWebhookUrl(
      "must be an https:// URL (http:// only to a host the operator allows with SIGHTLINE_ALERT_ALLOWED_HOSTS)",
    );
  const host = normalizeHost(url.hostname);
  const reason = internalHostReason(host);
  if (reason)
    throw new RefusedWebhookUrl(
      `must not point inside a network: ${host} is ${reason}; ${ALLOW_HINT}`,
    );
  if (isIP(host)) return;
  requirePublic(host, await resolveAll(settings.resolve ?? systemResolver, host));
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of a webhook's socket: it resolves the host and hands the socket only addresses
 * it has checked, so that a name that resolved to a public address at configuration (or at the
 * check just before) cannot send the connection inside the network (DNS rebinding). An allowed
 * host is resolved without the check.
 */
export function guardedLookup(settings: AlertSettings, allowed: boolean) {
  const resolve = settings.resolve ?? systemResolver;
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const host = normalizeHost(hostname);
    resolveAll(resolve, host)
      .then((found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        if (!allowed) requirePublic(host, addresses);
        if (addresses.length === 0) throw new RefusedWebhookUrl(`host ${host} has no address`);
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? "", addresses[0]?.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, ""));
  };
}
