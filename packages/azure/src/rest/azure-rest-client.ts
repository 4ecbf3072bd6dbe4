import type { TokenCredential } from "@azure/core-auth";
import {
  bearerTokenAuthenticationPolicy,
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
  type HttpClient,
  type Pipeline,
} from "@azure/core-rest-pipeline";
import { httpFailure, type ReadPurpose, requestFailure } from "../azure-error.ts";

/** How requests are sent: retries (throttling included), timeouts, trusted certificates. */
export interface AzureHttpOptions {
  /** Retries of a throttled (`429`/`503` with `Retry-After`) or failed request. Default 4. */
  readonly maxRetries?: number;
  /** Base of the exponential back-off when Azure gives no `Retry-After`. Default 1 s. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  /** Per request. Default 60 s. */
  readonly timeoutMs?: number;
  /** PEM certificates to trust besides Node's (a private cloud's CA, or a test fake's). */
  readonly trustedCertificates?: string;
}

/** A JSON client of one API (ARM or Graph) under one token scope. */
export interface AzureRestClient {
  getJson<T>(url: string, purpose: ReadPurpose): Promise<T>;
  postJson<T>(url: string, body: unknown, purpose: ReadPurpose): Promise<T>;
  /** Every `value` of a list, following `nextLink` (ARM) or `@odata.nextLink` (Graph). */
  listAll<T>(url: string, purpose: ReadPurpose, init?: { method?: "GET" | "POST" }): Promise<T[]>;
}

/** Pipeline options shared with `@azure/identity`, so the token endpoint is reached alike. */
export function pipelineOptionsOf(http: AzureHttpOptions) {
  return {
    retryOptions: {
      maxRetries: http.maxRetries ?? 4,
      retryDelayInMs: http.retryDelayMs ?? 1000,
      maxRetryDelayInMs: http.maxRetryDelayMs ?? 60_000,
    },
    userAgentOptions: { userAgentPrefix: "sightline" },
    ...(http.trustedCertificates ? { tlsOptions: { ca: http.trustedCertificates } } : {}),
  };
}

interface ListPage<T> {
  value?: T[];
  nextLink?: string | null;
  "@odata.nextLink"?: string | null;
}

/**
 * A client over `@azure/core-rest-pipeline`: the bearer-token policy asks the credential for a
 * token of `scope`; the default retry policy honours `Retry-After` (and `x-ms-retry-after-ms`)
 * of `429` and `503` answers and backs off exponentially on other transient failures. Answers
 * that remain failures become AppErrors naming what was read and the permission it needs.
 */
export function createAzureRestClient(input: {
  credential: TokenCredential;
  scope: string;
  http?: AzureHttpOptions;
  httpClient?: HttpClient;
}): AzureRestClient {
  const http = input.http ?? {};
  const pipeline: Pipeline = createPipelineFromOptions(pipelineOptionsOf(http));
  pipeline.addPolicy(
    bearerTokenAuthenticationPolicy({ credential: input.credential, scopes: input.scope }),
    { phase: "Sign" },
  );
  const client = input.httpClient ?? createDefaultHttpClient();

  async function send<T>(
    method: "GET" | "POST",
    url: string,
    body: unknown,
    purpose: ReadPurpose,
  ): Promise<T> {
    const request = createPipelineRequest({
      url,
      method,
      headers: createHttpHeaders({
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      }),
      timeout: http.timeoutMs ?? 60_000,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    let response: Awaited<ReturnType<Pipeline["sendRequest"]>>;
    try {
      response = await pipeline.sendRequest(client, request);
    } catch (error) {
      throw requestFailure(error, purpose);
    }
    let parsed: unknown;
    try {
      parsed = response.bodyAsText ? JSON.parse(response.bodyAsText) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.status < 200 || response.status >= 300)
      throw httpFailure(
        response.status,
        parsed,
        purpose,
        response.headers.get("retry-after") ?? undefined,
      );
    return parsed as T;
  }

  return {
    getJson: (url, purpose) => send("GET", url, undefined, purpose),
    postJson: (url, body, purpose) => send("POST", url, body, purpose),
    async listAll<T>(url: string, purpose: ReadPurpose, init?: { method?: "GET" | "POST" }) {
      const items: T[] = [];
      let next: string | undefined = url;
      let method = init?.method ?? "GET";
      const seen = new Set<string>();
      while (next) {
        if (seen.has(next)) break; // a service repeating a link must not loop forever
        seen.add(next);
        const page: ListPage<T> = await send<ListPage<T>>(
          method,
          next,
          method === "POST" ? {} : undefined,
          purpose,
        );
        items.push(...(page?.value ?? []));
        next = page?.nextLink ?? page?.["@odata.nextLink"] ?? undefined;
        method = init?.method === "POST" ? "POST" : "GET";
      }
      return items;
    },
  };
}
