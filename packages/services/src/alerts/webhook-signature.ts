import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ALERT_ID_HEADER, ALERT_SIGNATURE_HEADER, ALERT_TIMESTAMP_HEADER } from "@sightline/domain";

/** A receiver refuses a signature older (or further ahead) than this: replays fail. */
export const ALERT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** A webhook's signing secret: 32 random bytes, base64url (43 characters). */
export const newWebhookSecret = (): string => randomBytes(32).toString("base64url");

const hmac = (secret: string, timestamp: string, body: string | Uint8Array) =>
  createHmac("sha256", secret)
    .update(`${timestamp}.`)
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest();

/**
 * The headers of one webhook request: `sightline-signature: v1=<hex HMAC-SHA256>` of
 * `<timestamp>.<raw body>` under the secret (its text, as shown once, is the HMAC key).
 */
export function signAlert(
  secret: string,
  alertId: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    [ALERT_ID_HEADER]: alertId,
    [ALERT_TIMESTAMP_HEADER]: timestamp,
    [ALERT_SIGNATURE_HEADER]: `v1=${hmac(secret, timestamp, body).toString("hex")}`,
  };
}

type HeaderBag = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function")
    return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(",") : (value as string | undefined);
}

/**
 * What a receiver runs on each request: true when `sightline-signature` holds a `v1=` HMAC of
 * `<sightline-timestamp>.<raw body>` under the secret and the timestamp is within 5 minutes of
 * `now` (older ones are replays). `body` must be the raw bytes received, not re-serialised JSON.
 */
export function verifyAlertSignature(
  secret: string,
  headers: HeaderBag,
  body: string | Uint8Array,
  now: Date = new Date(),
): boolean {
  const timestamp = header(headers, ALERT_TIMESTAMP_HEADER)?.trim() ?? "";
  const signatures = header(headers, ALERT_SIGNATURE_HEADER) ?? "";
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const age = now.getTime() / 1000 - Number(timestamp);
  if (Math.abs(age) > ALERT_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = hmac(secret, timestamp, body);
  return signatures
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith("v1=") && /^[0-9a-f]{64}$/.test(part.slice(3)))
    .some((part) => timingSafeEqual(Buffer.from(part.slice(3), "hex"), expected));
}
