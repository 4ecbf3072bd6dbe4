import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";
import { type AlertSettings, DEFAULT_WEBHOOK_TIMEOUT_MS, isAllowedHost } from "./alert-settings.ts";
import { normalizeHost } from "./internal-addresses.ts";
import { signAlert } from "./webhook-signature.ts";
import { checkWebhookUrl, guardedLookup, RefusedWebhookUrl } from "./webhook-url.ts";

/** How one attempt went: delivered, worth another try, or failed for good. */
export type SendResult =
  | { outcome: "delivered"; status?: number }
  | { outcome: "retry" | "failed"; status?: number; error: string };

/** The most of an answer's body read (and thrown away) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface WebhookRequest {
  url: string;
  secret: string;
  alertId: string;
  /** The JSON text sent and signed. */
  body: string;
  now: Date;
  settings: AlertSettings;
}

/** A 2xx is delivered; 429 and 5xx may pass; a redirect or another 4xx fails for good. */
export function resultOfStatus(status: number): SendResult {
  if (status >= 200 && status < 300) return { outcome: "delivered", status };
  if (status === 429 || status >= 500)
    return { outcome: "retry", status, error: `the receiver answered ${status}` };
  if (status >= 300 && status < 400)
    return {
      outcome: "failed",
      status,
      error: `the receiver answered ${status}, a redirect: Sightline does not follow redirects; configure the final URL`,
    };
  return { outcome: "failed", status, error: `the receiver answered ${status}` };
}

function describeNetworkError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

/**
 * POSTs a signed alert. The URL is checked again first (the operator's allowlist may have
 * changed), and the socket connects only to addresses the guarded lookup checked: a refused
 * host fails for good without a connection. No redirect is followed; 10 s is the deadline.
 */
export async function sendWebhook(input: WebhookRequest): Promise<SendResult> {
  const { settings } = input;
  try {
    await checkWebhookUrl(input.url, settings);
  } catch (error) {
    if (!(error instanceof RefusedWebhookUrl)) throw error;
    return { outcome: "failed", error: `refused, no connection made: the URL ${error.message}` };
  }
  const url = new URL(input.url);
  const allowed = isAllowedHost(url, settings.allowedHosts);
  const timeoutMs = settings.requestTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(input.body)),
    "user-agent": "Sightline-Alerts/1",
    ...signAlert(input.secret, input.alertId, input.body, input.now),
  };
  const options = {
    method: "POST",
    hostname: normalizeHost(url.hostname),
    ...(url.port ? { port: Number(url.port) } : {}),
    path: `${url.pathname}${url.search}`,
    headers,
    // A socket of its own per request: no pooled connection skips the guarded lookup.
    agent: false as const,
    lookup: guardedLookup(settings, allowed),
    ...(settings.caCertificates?.length
      ? { ca: [...rootCertificates, ...settings.caCertificates] }
      : {}),
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    const request = send(options);
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    const settle = (result: SendResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    request.on("response", (answer: IncomingMessage) => {
      let read = 0;
      answer.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) answer.destroy();
      });
      answer.on("close", () => settle(resultOfStatus(answer.statusCode ?? 0)));
      answer.on("error", () => {});
    });
    request.on("error", (error: Error) => {
      if (error instanceof RefusedWebhookUrl)
        settle({
          outcome: "failed",
          error: `refused, no connection made: the URL ${error.message}`,
        });
      else settle({ outcome: "retry", error: describeNetworkError(error) });
    });
    request.end(input.body);
  });
}
