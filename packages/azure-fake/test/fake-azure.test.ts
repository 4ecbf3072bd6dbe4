import { request } from "node:https";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeAzure, smallTenant, startFakeAzure } from "../src/index.ts";

const { CLIENT_ID, CLIENT_SECRET, SUBSCRIPTION_ID, TENANT_ID } = smallTenant;

/** One HTTPS request to the fake, trusting its certificate. */
function call(
  fake: FakeAzure,
  path: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${fake.origin}${path}`,
      { method: options.method ?? "GET", headers: options.headers, ca: fake.certificate },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

let fake: FakeAzure | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("startFakeAzure", () => {
  it("issues a token for the ARM scope to a known app, which ARM then accepts", async () => {
    fake = await startFakeAzure(smallTenant.smallTenantModel());
    const tokenAnswer = await call(fake, `/${TENANT_ID}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        scope: fake.endpoints.armScope,
      }).toString(),
    });
    expect(tokenAnswer.status).toBe(200);
    const bearer = { authorization: `Bearer ${String(tokenAnswer.body.access_token)}` };
    const subscription = `/arm/subscriptions/${SUBSCRIPTION_ID}?api-version=2022-12-01`;
    expect((await call(fake, subscription)).status).toBe(401);
    const answer = await call(fake, subscription, { headers: bearer });
    expect(answer).toMatchObject({ status: 200, body: { subscriptionId: SUBSCRIPTION_ID } });
    // A token for ARM is not one for Graph.
    const graph = await call(fake, `/graph/v1.0/users?$filter=id in ('x')`, { headers: bearer });
    expect(graph.status).toBe(401);
    expect(fake.calls.map((c) => [c.service, c.status])).toEqual([
      ["token", 200],
      ["arm", 401],
      ["arm", 200],
      ["graph", 401],
    ]);
  });

  it("answers an injected fault instead of the route, then serves again", async () => {
    fake = await startFakeAzure(smallTenant.smallTenantModel());
    fake.fail({ service: "token", path: "/oauth2/v2.0/token", status: 429, retryAfter: 2 });
    const path = `/${TENANT_ID}/oauth2/v2.0/token`;
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: "nobody" });
    const first = await call(fake, path, { method: "POST", body: body.toString() });
    expect(first.status).toBe(429);
    const second = await call(fake, path, { method: "POST", body: body.toString() });
    expect(second).toMatchObject({ status: 400, body: { error: "unauthorized_client" } });
  });
});
