import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { AwsClientOptions, AwsCredentials } from "@sightline/aws";
import { normalizeHost } from "./internal-addresses.ts";

/** An address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (A and AAAA). Injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver (getaddrinfo, as a connection would use), every answer. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => ({
    address: answer.address,
    family: answer.family === 6 ? 6 : 4,
  }));

/** A host the operator allows webhooks to reach although it is internal; any port unless named. */
export interface AllowedHost {
  host: string;
  port?: number;
}

/** How alerts are delivered. Every member is optional; the defaults suit production. */
export interface AlertSettings {
  /** `SIGHTLINE_ALERT_ALLOWED_HOSTS`: internal hosts webhooks may reach (and over http://). */
  allowedHosts?: readonly AllowedHost[];
  /** Default: the system's resolver. */
  resolve?: Resolver;
  /** `SIGHTLINE_SMTP_URL` and `SIGHTLINE_ALERT_EMAIL_FROM`; without them, no email destination. */
  smtp?: { url: string; from: string };
  /** PEM certificates trusted for webhooks besides the system's CAs (`SIGHTLINE_ALERT_CA_FILE`). */
  caCertificates?: readonly string[];
  /** Retries of a delivery that may pass, with exponential back-off from `delaySeconds`. */
  retry?: { limit: number; delaySeconds: number };
  /** A webhook request's deadline; default 10 s. */
  requestTimeoutMs?: number;
  /** Sightline's own AWS credentials and endpoints for Security Hub (default: the SDK's chain). */
  aws?: { serviceCredentials?: AwsCredentials; clientOptions?: AwsClientOptions };
}

/** About 31 minutes of retries: 30 s, 1, 2, 4, 8 and 16 minutes (each up to twice as long). */
export const DEFAULT_ALERT_RETRY = { limit: 6, delaySeconds: 30 } as const;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** One `SIGHTLINE_ALERT_ALLOWED_HOSTS` entry (`name`, `name:port`, `[v6]:port`), or undefined. */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const text = entry.trim().toLowerCase();
  const match =
    /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(text) ?? (isIP(text) === 6 ? [text, text] : null);
  if (!match) return undefined;
  const host = normalizeHost(match[1] ?? "");
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (!isIP(host) && !HOST_NAME.test(host)) return undefined;
  return port === undefined ? { host } : { host, port };
}

/** Whether the operator allows this URL's host (and port). */
export function isAllowedHost(url: URL, allowed: readonly AllowedHost[] = []): boolean {
  const host = normalizeHost(url.hostname);
  const port = url.port ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
  return allowed.some((entry) => entry.host === host && (entry.port ?? port) === port);
}
