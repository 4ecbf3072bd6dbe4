import { createPublicKey, constants as cryptoConstants, randomBytes, verify } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { AZURE_CLOUD_ENDPOINTS, type AzureEndpoints } from "../azure-clouds.ts";
import type { FakeApp, FakeAzureModel } from "./fake-model.ts";
import { loopbackCertificate } from "./fake-tls.ts";

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
  readonly endpoints: AzureEndpoints;
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

interface IssuedToken {
  clientId: string;
  tenantId: string;
  scope: string;
}

const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
};

const armError = (code: string, message: string) => ({ error: { code, message } });
const graphError = (code: string, message: string) => ({ error: { code, message } });

/** Graph permissions that include reading these. */
const GRAPH_READS = {
  users: ["User.Read.All", "User.ReadBasic.All", "Directory.Read.All"],
  groups: ["GroupMember.Read.All", "Group.Read.All", "Directory.Read.All"],
  servicePrincipals: ["Application.Read.All", "Directory.Read.All"],
} as const;

const b64url = (text: string) => Buffer.from(text, "base64url");

/** A client assertion (RFC 7523) signed by the app's certificate key, for this client. */
function validAssertion(assertion: string, app: FakeApp): boolean {
  if (!app.certificatePem) return false;
  const [header, payload, signature] = assertion.split(".");
  if (!header || !payload || !signature) return false;
  try {
    const h = JSON.parse(b64url(header).toString("utf8")) as { alg?: string };
    const p = JSON.parse(b64url(payload).toString("utf8")) as {
      iss?: string;
      sub?: string;
      exp?: number;
    };
    if (p.iss !== app.clientId || p.sub !== app.clientId) return false;
    if (typeof p.exp === "number" && p.exp * 1000 < Date.now()) return false;
    const key = createPublicKey(app.certificatePem);
    const data = Buffer.from(`${header}.${payload}`);
    if (h.alg === "RS256") return verify("sha256", data, key, b64url(signature));
    if (h.alg === "PS256")
      return verify(
        "sha256",
        data,
        { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        b64url(signature),
      );
    return false;
  } catch {
    return false;
  }
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
  const pageSize = options.pageSize ?? 100;
  const calls: FakeAzureCall[] = [];
  const faults: { fault: FakeAzureFault; left: number }[] = [];
  const tokens = new Map<string, IssuedToken>();
  const tls = await loopbackCertificate();
  const scopes = AZURE_CLOUD_ENDPOINTS.azure;
  let origin = "";

  const record = (service: FakeAzureService, req: IncomingMessage, path: string, status: number) =>
    calls.push({ service, method: req.method ?? "", path, status, at: Date.now() });

  function takeFault(service: FakeAzureService, path: string): FakeAzureFault | undefined {
    const found = faults.find((f) => f.fault.service === service && path.includes(f.fault.path));
    if (!found) return undefined;
    found.left -= 1;
    if (found.left <= 0) faults.splice(faults.indexOf(found), 1);
    return found.fault;
  }

  /** One page of `items`, and the link to the next (the request's URL with `$skiptoken`). */
  function page<T>(url: URL, items: readonly T[], linkName: "nextLink" | "@odata.nextLink") {
    const skip = Number(url.searchParams.get("$skiptoken") ?? "0");
    const value = items.slice(skip, skip + pageSize);
    const body: Record<string, unknown> = { value };
    if (skip + pageSize < items.length) {
      const next = new URL(url);
      next.searchParams.set("$skiptoken", String(skip + pageSize));
      body[linkName] = next.toString();
    }
    return body;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    return Buffer.concat(parts).toString("utf8");
  }

  // --- Microsoft Entra ID ---------------------------------------------------------------
  async function token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const segments = url.pathname.split("/").filter(Boolean);
    if (url.pathname.endsWith("/discovery/instance")) {
      const host = new URL(origin).host;
      json(res, 200, {
        tenant_discovery_endpoint: `${origin}/${model.tenantId}/v2.0/.well-known/openid-configuration`,
        "api-version": "1.1",
        metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
      });
      return 200;
    }
    const tenant = segments[0] ?? "";
    if (tenant !== model.tenantId && tenant !== "organizations") {
      json(res, 400, {
        error: "invalid_tenant",
        error_description: `AADSTS90002: Tenant '${tenant}' not found.`,
      });
      return 400;
    }
    if (url.pathname.endsWith("/.well-known/openid-configuration")) {
      const base = `${origin}/${model.tenantId}`;
      json(res, 200, {
        token_endpoint: `${base}/oauth2/v2.0/token`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
        jwks_uri: `${origin}/${model.tenantId}/discovery/v2.0/keys`,
        issuer: `${base}/v2.0`,
        response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt"],
        tenant_region_scope: "NA",
      });
      return 200;
    }
    if (req.method === "POST" && url.pathname.endsWith("/oauth2/v2.0/token")) {
      const form = new URLSearchParams(await readBody(req));
      const clientId = form.get("client_id") ?? "";
      const app = model.apps.find((a) => a.clientId === clientId);
      if (form.get("grant_type") !== "client_credentials") {
        json(res, 400, { error: "unsupported_grant_type", error_description: "AADSTS70003" });
        return 400;
      }
      if (!app) {
        json(res, 400, {
          error: "unauthorized_client",
          error_description: `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${model.tenantId}'.`,
        });
        return 400;
      }
      const secret = form.get("client_secret");
      const assertion = form.get("client_assertion");
      const valid =
        (secret !== null && app.secret !== undefined && secret === app.secret) ||
        (assertion !== null && validAssertion(assertion, app));
      if (!valid) {
        json(res, 401, {
          error: "invalid_client",
          error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value for app '${clientId}'.`,
        });
        return 401;
      }
      const scope =
        form
          .get("scope")
          ?.split(" ")
          .find((s) => s.endsWith("/.default")) ?? "";
      const accessToken = randomBytes(24).toString("base64url");
      tokens.set(accessToken, { clientId, tenantId: model.tenantId, scope });
      json(res, 200, {
        token_type: "Bearer",
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: accessToken,
      });
      return 200;
    }
    json(res, 404, { error: "not_found" });
    return 404;
  }

  function caller(req: IncomingMessage, scope: string): IssuedToken | undefined {
    const header = req.headers.authorization ?? "";
    const issued = header.startsWith("Bearer ") ? tokens.get(header.slice(7)) : undefined;
    return issued && issued.scope === scope ? issued : undefined;
  }

  // --- Azure Resource Manager -----------------------------------------------------------
  const sub = () => `/subscriptions/${model.subscriptionId}`;
  const inChain = (scope: string) => {
    const s = scope.toLowerCase();
    if (s === "/") return true;
    if (s === sub().toLowerCase() || s.startsWith(`${sub().toLowerCase()}/`)) return true;
    return model.managementGroupChain.some(
      (mg) => s === `/providers/microsoft.management/managementgroups/${mg.toLowerCase()}`,
    );
  };
  const armRoleDefinition = (d: FakeAzureModel["roleDefinitions"][number]) => ({
    id: d.id,
    name: d.name,
    type: "Microsoft.Authorization/roleDefinitions",
    properties: {
      roleName: d.roleName,
      type: d.roleType ?? "CustomRole",
      description: d.description ?? "",
      assignableScopes: d.assignableScopes ?? [],
      permissions: d.permissions,
    },
  });
  const armRoleAssignment = (a: FakeAzureModel["roleAssignments"][number]) => ({
    id: a.id,
    name: a.name ?? a.id.slice(a.id.lastIndexOf("/") + 1),
    type: "Microsoft.Authorization/roleAssignments",
    properties: {
      roleDefinitionId: a.roleDefinitionId,
      principalId: a.principalId,
      principalType: a.principalType ?? "User",
      scope: a.scope,
      condition: a.condition ?? null,
      conditionVersion: a.conditionVersion ?? null,
      createdOn: "2026-01-01T00:00:00Z",
    },
  });
  const armResource = (r: FakeAzureModel["resources"][number]) => ({
    id: r.id,
    name: r.name ?? r.id.slice(r.id.lastIndexOf("/") + 1),
    type: r.type,
    location: r.location ?? "westeurope",
    tags: r.tags ?? {},
  });

  function arm(req: IncomingMessage, res: ServerResponse, url: URL): number {
    const who = caller(req, scopes.armScope);
    if (!who) {
      json(res, 401, armError("InvalidAuthenticationToken", "The access token is invalid."));
      return 401;
    }
    const app = model.apps.find((a) => a.clientId === who.clientId);
    if (!url.searchParams.get("api-version")) {
      json(
        res,
        400,
        armError("MissingApiVersionParameter", "The api-version query parameter is required."),
      );
      return 400;
    }
    const denied = (action: string, scope: string) => {
      json(
        res,
        403,
        armError(
          "AuthorizationFailed",
          `The client '${who.clientId}' with object id '${who.clientId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid.`,
        ),
      );
      return 403;
    };
    const p = url.pathname.replace(/^\/arm/, "");
    const lower = p.toLowerCase();
    if (req.method === "POST" && lower === "/providers/microsoft.management/getentities") {
      if (app?.managementGroupsReadable === false)
        return denied("Microsoft.Management/getEntities/action", "/");
      const chain = model.managementGroupChain;
      const entities = [
        ...chain.map((mg, i) => ({
          id: `/providers/Microsoft.Management/managementGroups/${mg}`,
          type: "Microsoft.Management/managementGroups",
          name: mg,
          properties: { parentNameChain: chain.slice(0, i) },
        })),
        {
          id: `/subscriptions/${model.subscriptionId}`,
          type: "/subscriptions",
          name: model.subscriptionId,
          properties: { parentNameChain: [...chain] },
        },
      ];
      const filter = /name eq '([^']+)'/.exec(url.searchParams.get("$filter") ?? "")?.[1];
      const listed = filter ? entities.filter((e) => e.name === filter) : entities;
      json(res, 200, page(url, listed, "nextLink"));
      return 200;
    }
    if (req.method !== "GET") {
      json(res, 405, armError("MethodNotAllowed", "method"));
      return 405;
    }
    // A role definition by ID, wherever it is defined.
    const byId = /\/providers\/microsoft\.authorization\/roledefinitions\/([0-9a-f-]{36})$/.exec(
      lower,
    );
    if (byId) {
      if (app?.reader === false) return denied("Microsoft.Authorization/roleDefinitions/read", p);
      const found = model.roleDefinitions.find((d) => d.name.toLowerCase() === byId[1]);
      if (!found) {
        json(
          res,
          404,
          armError("RoleDefinitionDoesNotExist", "The specified role definition does not exist."),
        );
        return 404;
      }
      json(res, 200, armRoleDefinition(found));
      return 200;
    }
    if (!lower.startsWith(sub().toLowerCase())) {
      json(
        res,
        404,
        armError(
          "SubscriptionNotFound",
          `The subscription '${p.split("/")[2]}' could not be found.`,
        ),
      );
      return 404;
    }
    const rest = lower.slice(sub().length);
    const actions: Record<string, string> = {
      "": "Microsoft.Resources/subscriptions/read",
      "/providers/microsoft.authorization/roledefinitions":
        "Microsoft.Authorization/roleDefinitions/read",
      "/providers/microsoft.authorization/roleassignments":
        "Microsoft.Authorization/roleAssignments/read",
      "/providers/microsoft.authorization/denyassignments":
        "Microsoft.Authorization/denyAssignments/read",
      "/resourcegroups": "Microsoft.Resources/subscriptions/resourceGroups/read",
      "/resources": "Microsoft.Resources/subscriptions/resources/read",
    };
    const action = actions[rest];
    if (action === undefined) {
      json(res, 404, armError("InvalidResourceType", `No route for ${p}`));
      return 404;
    }
    if (app?.reader === false) return denied(action, sub());
    let items: unknown[];
    switch (rest) {
      case "":
        json(res, 200, {
          id: sub(),
          subscriptionId: model.subscriptionId,
          tenantId: model.tenantId,
          displayName: model.subscriptionName,
          state: "Enabled",
        });
        return 200;
      case "/providers/microsoft.authorization/roledefinitions":
        items = model.roleDefinitions
          .filter((d) => (d.assignableScopes ?? []).some(inChain))
          .filter((d) =>
            (d.assignableScopes ?? []).some(
              (s) => s === "/" || s.toLowerCase().startsWith(sub().toLowerCase()),
            ),
          )
          .map((d) => ({
            ...armRoleDefinition(d),
            id: `${sub()}/providers/Microsoft.Authorization/roleDefinitions/${d.name}`,
          }));
        break;
      case "/providers/microsoft.authorization/roleassignments":
        items = model.roleAssignments.filter((a) => inChain(a.scope)).map(armRoleAssignment);
        break;
      case "/providers/microsoft.authorization/denyassignments":
        items = model.denyAssignments.filter((d) => inChain(d.properties?.scope ?? d.scope ?? ""));
        break;
      case "/resourcegroups":
        items = model.resourceGroups.map(armResource);
        break;
      default:
        items = model.resources.map(armResource);
    }
    json(res, 200, page(url, items, "nextLink"));
    return 200;
  }

  // --- Microsoft Graph ------------------------------------------------------------------
  const objectOf = (id: string, app: FakeApp | undefined) => {
    const may = (what: keyof typeof GRAPH_READS) =>
      GRAPH_READS[what].some((perm) => app?.graphPermissions.includes(perm));
    const user = model.users.find((u) => u.id === id);
    if (user)
      return may("users")
        ? { "@odata.type": "#microsoft.graph.user", ...user }
        : { "@odata.type": "#microsoft.graph.user", id };
    const sp = model.servicePrincipals.find((s) => s.id === id);
    if (sp)
      return may("servicePrincipals")
        ? { "@odata.type": "#microsoft.graph.servicePrincipal", ...sp }
        : { "@odata.type": "#microsoft.graph.servicePrincipal", id };
    const group = model.groups.find((g) => g.id === id);
    if (group)
      return { "@odata.type": "#microsoft.graph.group", id, displayName: group.displayName };
    return undefined;
  };

  function transitive(groupId: string): string[] {
    const seen = new Set<string>();
    const walk = (id: string) => {
      for (const member of model.groups.find((g) => g.id === id)?.memberIds ?? []) {
        if (seen.has(member)) continue;
        seen.add(member);
        walk(member);
      }
    };
    walk(groupId);
    return [...seen];
  }

  function graph(req: IncomingMessage, res: ServerResponse, url: URL): number {
    const who = caller(req, scopes.graphScope);
    if (!who) {
      json(res, 401, graphError("InvalidAuthenticationToken", "Access token validation failure."));
      return 401;
    }
    const app = model.apps.find((a) => a.clientId === who.clientId);
    const refuse = () => {
      json(
        res,
        403,
        graphError(
          "Authorization_RequestDenied",
          "Insufficient privileges to complete the operation.",
        ),
      );
      return 403;
    };
    const p = url.pathname.replace(/^\/graph/, "");
    const members = /^\/v1\.0\/groups\/([0-9a-f-]{36})\/transitiveMembers$/i.exec(p);
    if (members) {
      if (!GRAPH_READS.groups.some((perm) => app?.graphPermissions.includes(perm))) return refuse();
      const id = members[1] ?? "";
      if (!model.groups.some((g) => g.id === id)) {
        json(res, 404, graphError("Request_ResourceNotFound", `Resource '${id}' does not exist.`));
        return 404;
      }
      const objects = transitive(id).flatMap((m) => objectOf(m, app) ?? []);
      json(res, 200, page(url, objects, "@odata.nextLink"));
      return 200;
    }
    const collection = /^\/v1\.0\/(users|groups|servicePrincipals)$/.exec(p)?.[1] as
      | keyof typeof GRAPH_READS
      | undefined;
    if (collection) {
      if (!GRAPH_READS[collection].some((perm) => app?.graphPermissions.includes(perm)))
        return refuse();
      const filter = url.searchParams.get("$filter") ?? "";
      const ids = /^id in \((.*)\)$/
        .exec(filter)?.[1]
        ?.match(/'[^']*'/g)
        ?.map((s) => s.slice(1, -1));
      if (!ids || ids.length > 15) {
        json(
          res,
          400,
          graphError("Request_UnsupportedQuery", "Unsupported or too many values in the filter."),
        );
        return 400;
      }
      const all =
        collection === "users"
          ? model.users
          : collection === "servicePrincipals"
            ? model.servicePrincipals
            : model.groups.map((g) => ({ id: g.id, displayName: g.displayName }));
      const wanted = all.filter((o) => ids.includes(o.id));
      json(res, 200, page(url, wanted, "@odata.nextLink"));
      return 200;
    }
    json(res, 404, graphError("Request_ResourceNotFound", `No route for ${p}`));
    return 404;
  }

  const server = createServer({ cert: tls.cert, key: tls.key }, async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
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
          ? await token(req, res, url)
          : service === "arm"
            ? arm(req, res, url)
            : graph(req, res, url);
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
  origin = `https://127.0.0.1:${port}`;
  return {
    origin,
    endpoints: {
      armUrl: `${origin}/arm`,
      graphUrl: `${origin}/graph`,
      authorityHost: origin,
      armScope: scopes.armScope,
      graphScope: scopes.graphScope,
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
