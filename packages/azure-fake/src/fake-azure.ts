import type { IncomingMessage } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { arm } from "./fake-arm.ts";
import { token } from "./fake-entra.ts";
import { graph } from "./fake-graph.ts";
import { type FakeAzureContext, json, PUBLIC_CLOUD_SCOPES, readBody } from "./fake-http.ts";
import type { FakeAzureModel } from "./fake-model.ts";
import { loopbackCertificate } from "./fake-tls.ts";

/**
 * Where the fake is reached: structurally `@sightline/azure`'s `AzureEndpoints` (its tests pass it
 * where that is expected), declared here so that the fake does not depend on the package it is a
 * fake for.
 */
export interface FakeAzureEndpoints {
  readonly armUrl: string;
  readonly graphUrl: string;
  readonly authorityHost: string;
  readonly armScope: string;
  readonly graphScope: string;
}

export type FakeAzureService = "token" | "arm" | "graph";

/** A request the fake answered. */
export interface FakeAzureCall {
  readonly service: FakeAzureService;
  readonly method: string;
  /** Path and query, without the `/arm` or `/graph` prefix. */
  readonly path: string;
  readonly status: number;
  /** `Date.now()` when it arrived. */
  readonly at: number;
}

/** Answers the next `times` requests whose path contains `path` with `status`. */
export interface FakeAzureFault {
  readonly service: FakeAzureService;
  readonly path: string;
  readonly status: number;
  readonly times?: number;
  /** Seconds, sent as `Retry-After`. */
  readonly retryAfter?: number;
  readonly body?: unknown;
}

export interface FakeAzure {
  /** `https://127.0.0.1:<port>`: the authority host. */
  readonly origin: string;
  /** The public cloud's token scopes, with every URL on the fake. */
  readonly endpoints: FakeAzureEndpoints;
  /** The fake's self-signed certificate (PEM), to trust in the test (`trustedCertificates`). */
  readonly certificate: string;
  /** The served model; tests may change it between collections. */
  readonly model: FakeAzureModel;
  readonly calls: FakeAzureCall[];
  fail(fault: FakeAzureFault): void;
  close(): Promise<void>;
}

export interface FakeAzureOptions {
  /** Items per page of every list, so that pagination is exercised. Default 100. */
  readonly pageSize?: number;
}

/**
 * A loopback HTTPS fake of Microsoft Entra ID's token endpoint (OpenID discovery, instance
 * discovery, the client-credentials grant with a secret or a certificate assertion), ARM
 * (subscription, authorization, resources, management-group entities) and Microsoft Graph
 * (users, groups, service principals, transitive members), serving one tenant's model.
 * Lists are paged (`nextLink`, `@odata.nextLink`); faults answer chosen requests with `429`
 * and `Retry-After`, `403` or `5xx`; an app without Reader or a Graph permission gets Azure's
 * `403`. The real `@azure/identity` and `@azure/core-rest-pipeline` clients talk to it over
 * HTTPS: the test trusts `certificate`.
 */
export async function startFakeAzure(
  model: FakeAzureModel,
  options: FakeAzureOptions = {},
): Promise<FakeAzure> {
  const calls: FakeAzureCall[] = [];
  const faults: { fault: FakeAzureFault; left: number }[] = [];
  const ctx: FakeAzureContext = {
    model,
    pageSize: options.pageSize ?? 100,
    tokens: new Map(),
    origin: "",
  };
  const tls = await loopbackCertificate();

  const record = (service: FakeAzureService, req: IncomingMessage, path: string, status: number) =>
    calls.push({ service, method: req.method ?? "", path, status, at: Date.now() });

  function takeFault(service: FakeAzureService, path: string): FakeAzureFault | undefined {
    const found = faults.find((f) => f.fault.service === service && path.includes(f.fault.path));
    if (!found) return undefined;
    found.left -= 1;
    if (found.left <= 0) faults.splice(faults.indexOf(found), 1);
    return found.fault;
  }

  const server = createServer({ cert: tls.cert, key: tls.key }, async (req, res) => {
    const url = new URL(req.url ?? "/", ctx.origin);
    const service: FakeAzureService = url.pathname.startsWith("/arm/")
      ? "arm"
      : url.pathname.startsWith("/graph/")
        ? "graph"
        : "token";
    const path = `${url.pathname.replace(/^\/(arm|graph)/, "")}${url.search}`;
    try {
      const fault = takeFault(service, path);
      if (fault) {
        if (req.method === "POST") await readBody(req);
        const body =
          fault.body ??
          (fault.status === 429
            ? { error: { code: "TooManyRequests", message: "Throttled" } }
            : fault.status === 403
              ? { error: { code: "AuthorizationFailed", message: "Refused by a fault" } }
              : { error: { code: "InternalServerError", message: "Fault" } });
        json(
          res,
          fault.status,
          body,
          fault.retryAfter ? { "retry-after": String(fault.retryAfter) } : {},
        );
        record(service, req, path, fault.status);
        return;
      }
      const status =
        service === "token"
          ? await token(ctx, req, res, url)
          : service === "arm"
            ? arm(ctx, req, res, url)
            : graph(ctx, req, res, url);
      record(service, req, path, status);
    } catch (error) {
      json(res, 500, { error: { code: "FakeFailure", message: String(error) } });
      record(service, req, path, 500);
    }
  });
  // Every socket, TLS handshakes included, so that closing never waits for a keep-alive.
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;
  ctx.origin = origin;
  return {
    origin,
    endpoints: {
      armUrl: `${origin}/arm`,
      graphUrl: `${origin}/graph`,
      authorityHost: origin,
      armScope: PUBLIC_CLOUD_SCOPES.armScope,
      graphScope: PUBLIC_CLOUD_SCOPES.graphScope,
    },
    certificate: tls.cert,
    model,
    calls,
    fail(fault) {
      faults.push({ fault, left: fault.times ?? 1 });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
