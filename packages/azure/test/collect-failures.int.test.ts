import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  applicationCertificate,
  type FakeAzure,
  type FakeAzureModel,
  smallTenant,
  startFakeAzure,
} from "@sightline/azure-fake";
import type { AppError } from "@sightline/domain";
import { afterEach, describe, expect, it } from "vitest";
import { collectSubscription } from "../src/collect/collect-subscription.ts";
import { type AppSecret, createAppCredential } from "../src/credentials/app-credential.ts";
import { createVendedTokenCredential } from "../src/credentials/vended-token-credential.ts";
import type { AzureHttpOptions } from "../src/rest/azure-rest-client.ts";

const { CLIENT_ID, CLIENT_SECRET, SUBSCRIPTION_ID, TENANT_ID, ALICE, BOB, PLATFORM_OPS } =
  smallTenant;

let fake: FakeAzure | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const close of closers.splice(0)) await close();
});

async function start(change: (model: FakeAzureModel) => void = () => {}) {
  const model = smallTenant.smallTenantModel();
  change(model);
  fake = await startFakeAzure(model, { pageSize: 2 });
  return fake;
}

const httpOf = (f: FakeAzure, more: AzureHttpOptions = {}): AzureHttpOptions => ({
  trustedCertificates: f.certificate,
  retryDelayMs: 50,
  maxRetryDelayMs: 200,
  ...more,
});

function collect(
  f: FakeAzure,
  options: { secret?: AppSecret; clientId?: string; http?: AzureHttpOptions } = {},
) {
  const http = options.http ?? httpOf(f);
  const credential = createAppCredential({
    tenantId: TENANT_ID,
    clientId: options.clientId ?? CLIENT_ID,
    secret: options.secret ?? { kind: "secret", clientSecret: CLIENT_SECRET },
    endpoints: f.endpoints,
    http,
  });
  return collectSubscription({
    subscriptionId: SUBSCRIPTION_ID,
    tenantId: TENANT_ID,
    cloud: "azure",
    credential,
    endpoints: f.endpoints,
    http,
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a failure");
}

describe("throttling and transient failures", () => {
  it("waits out 429 with Retry-After and then succeeds", async () => {
    const f = await start();
    f.fail({ service: "arm", path: "/roleAssignments", status: 429, retryAfter: 1, times: 2 });
    f.fail({ service: "graph", path: "/transitiveMembers", status: 429, retryAfter: 1, times: 1 });
    const { snapshot } = await collect(f);
    expect(snapshot.roleAssignments).toHaveLength(6);
    const calls = f.calls.filter((c) => c.service === "arm" && c.path.includes("/roleAssignments"));
    expect(calls.map((c) => c.status).slice(0, 3)).toEqual([429, 429, 200]);
    // Retry-After: 1 is honoured: each retry comes at least a second later.
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect((calls[2]?.at ?? 0) - (calls[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    const graph = f.calls.filter(
      (c) => c.service === "graph" && c.path.includes("transitiveMembers"),
    );
    expect(graph.some((c) => c.status === 429)).toBe(true);
    expect(snapshot.groups?.find((g) => g.id === PLATFORM_OPS)?.members.map((m) => m.id)).toContain(
      BOB,
    );
  });

  it("retries a 503 and a page of a list in the middle of pagination", async () => {
    const f = await start();
    f.fail({ service: "arm", path: "skiptoken=2", status: 503, times: 1 });
    const { snapshot } = await collect(f);
    expect(snapshot.roleAssignments).toHaveLength(6);
    expect(f.calls.some((c) => c.status === 503)).toBe(true);
  });

  it("fails THROTTLED (retryable) when Azure keeps throttling past the retries", async () => {
    const f = await start();
    f.fail({ service: "arm", path: "/denyAssignments", status: 429, retryAfter: 1, times: 10 });
    const error = await failure(collect(f, { http: httpOf(f, { maxRetries: 1 }) }));
    expect(error.code).toBe("THROTTLED");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("deny assignments");
  });
});

describe("403: a clear error naming the missing permission", () => {
  it("without Reader on the subscription", async () => {
    const f = await start((m) => {
      for (const app of m.apps) app.reader = false;
    });
    const error = await failure(collect(f));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Microsoft.Resources/subscriptions/read");
    expect(error.message).toContain("Reader role on the subscription");
    expect(error.message).toContain("AuthorizationFailed");
  });

  it("a refused role assignment list names Microsoft.Authorization/roleAssignments/read", async () => {
    const f = await start();
    f.fail({ service: "arm", path: "/roleAssignments", status: 403 });
    const error = await failure(collect(f));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.message).toContain("Microsoft.Authorization/roleAssignments/read");
  });

  it("without GroupMember.Read.All: group members cannot be read, the collection fails", async () => {
    const f = await start((m) => {
      for (const app of m.apps) app.graphPermissions = ["User.Read.All", "Application.Read.All"];
    });
    const error = await failure(collect(f));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.message).toContain("GroupMember.Read.All");
    expect(error.message).toContain("transitive members");
  });

  it("without User.Read.All: users are reported by ID, with a warning", async () => {
    const f = await start((m) => {
      for (const app of m.apps)
        app.graphPermissions = ["GroupMember.Read.All", "Application.Read.All"];
    });
    const { snapshot, warnings } = await collect(f);
    expect(warnings.map((w) => w.kind)).toContain("access-denied");
    expect(warnings.find((w) => w.kind === "access-denied")?.message).toContain("User.Read.All");
    expect(snapshot.principals?.find((p) => p.id === ALICE)).toBeUndefined();
    const bob = snapshot.groups
      ?.find((g) => g.id === PLATFORM_OPS)
      ?.members.find((m) => m.id === BOB);
    expect(bob).toEqual({ "@odata.type": "#microsoft.graph.user", id: BOB });
  });

  it("management groups unreadable: managementGroupAncestors unset, with a warning", async () => {
    const f = await start((m) => {
      for (const app of m.apps) app.managementGroupsReadable = false;
    });
    const { snapshot, warnings } = await collect(f);
    expect(snapshot.managementGroupAncestors).toBeUndefined();
    expect(warnings.map((w) => w.kind)).toEqual(["management-groups-unreadable"]);
    expect(snapshot.roleAssignments).toHaveLength(6);
  });
});

describe("Sightline's application signing in", () => {
  it("a wrong client secret fails CREDENTIAL_INVALID with Entra's code, never the secret", async () => {
    const f = await start();
    const secret = "wrong-secret-value-000000";
    const error = await failure(collect(f, { secret: { kind: "secret", clientSecret: secret } }));
    expect(error.code).toBe("CREDENTIAL_INVALID");
    expect(error.message).toContain("AADSTS7000215");
    expect(error.message).not.toContain(secret);
  });

  it("an application not consented in the tenant says an administrator must consent", async () => {
    const f = await start();
    const error = await failure(collect(f, { clientId: "0c0c0c0c-0000-4000-8000-00000000000c" }));
    expect(error.code).toBe("CREDENTIAL_INVALID");
    expect(error.message).toContain("AADSTS700016");
    expect(error.message).toContain("consent");
  });

  it("signs in with a certificate (ClientCertificateCredential, a signed client assertion)", async () => {
    const app = await applicationCertificate();
    const f = await start((m) => {
      for (const a of m.apps) {
        a.secret = undefined;
        a.certificatePem = app.cert;
      }
    });
    const { snapshot } = await collect(f, {
      secret: { kind: "certificate-pem", certificate: `${app.key}\n${app.cert}` },
    });
    expect(snapshot.roleAssignments).toHaveLength(6);
    // A certificate the fake does not know is refused.
    const other = await applicationCertificate();
    const error = await failure(
      collect(f, {
        secret: { kind: "certificate-pem", certificate: `${other.key}\n${other.cert}` },
      }),
    );
    expect(error.code).toBe("CREDENTIAL_INVALID");
  });
});

/** What Sightline sends the vending service for this subscription. */
const VENDING_REQUEST = {
  partnerId: "P123456",
  partnerCustomerId: "acme-prod-01",
  customerId: "P123456-000000000001",
  accountId: SUBSCRIPTION_ID,
  provider: "azure",
  executionId: "x",
};

describe("cvs: tokens from the credential vending service", () => {
  it("asks the vending service for one token per scope and collects with them", async () => {
    const f = await start();
    const issuer = createAppCredential({
      tenantId: TENANT_ID,
      clientId: CLIENT_ID,
      secret: { kind: "secret", clientSecret: CLIENT_SECRET },
      endpoints: f.endpoints,
      http: httpOf(f),
    });
    const requests: { authorization?: string; body: Record<string, unknown> }[] = [];
    const server = createServer(async (req, res) => {
      const parts: Buffer[] = [];
      for await (const part of req) parts.push(part as Buffer);
      const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>;
      requests.push({ authorization: req.headers.authorization, body });
      const token = await issuer.getToken(String(body.scope));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          accessToken: token?.token,
          expiresOn: new Date(token?.expiresOnTimestamp ?? 0).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tokens`;
    const request = { ...VENDING_REQUEST, executionId: "ondemand-x" };
    const credential = createVendedTokenCredential({ url, token: "vending-token-123", request });
    const { snapshot } = await collectSubscription({
      subscriptionId: SUBSCRIPTION_ID,
      cloud: "azure",
      credential,
      endpoints: f.endpoints,
      http: httpOf(f),
    });
    expect(snapshot.roleAssignments).toHaveLength(6);
    expect(requests.map((r) => r.body.scope).sort()).toEqual([
      "https://graph.microsoft.com/.default",
      "https://management.azure.com/.default",
    ]);
    expect(requests[0]?.authorization).toBe("Bearer vending-token-123");
    expect(requests[0]?.body).toMatchObject(request);
  });

  it("a vending service refusing the token fails CREDENTIAL_VENDING_FAILED", async () => {
    const f = await start();
    const server = createServer((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const credential = createVendedTokenCredential({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tokens`,
      token: "t",
      request: VENDING_REQUEST,
    });
    const error = await failure(
      collectSubscription({
        subscriptionId: SUBSCRIPTION_ID,
        cloud: "azure",
        credential,
        endpoints: f.endpoints,
        http: httpOf(f),
      }),
    );
    expect(error.code).toBe("CREDENTIAL_VENDING_FAILED");
    expect(error.message).toContain("refused Sightline's token");
  });

  it("refuses a plain-http vending URL that is not loopback", () => {
    expect(() =>
      createVendedTokenCredential({
        url: "http://vending.example/tokens",
        token: "t",
        request: VENDING_REQUEST,
      }),
    ).toThrow(/https/);
  });
});
