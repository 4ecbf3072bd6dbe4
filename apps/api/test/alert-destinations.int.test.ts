import type { Resolver } from "@sightline/services";
import { beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const resolve: Resolver = async (host) => {
  const answers: Record<string, string[]> = {
    "hooks.example.com": ["93.184.215.14"],
    "other.example.com": ["93.184.215.15"],
    "evil.example": ["10.0.0.1"],
  };
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
  return found.map((address) => ({ address, family: 4 }));
};
const h = await createHarness({
  alerts: { resolve, smtp: { url: "smtp://relay.example:25", from: "alerts@sightline.example" } },
});
const noRelay = await createHarness({ alerts: { resolve } });

const WEBHOOK = { name: "soc", kind: "webhook", url: "https://hooks.example.com/sightline" };
const EMAIL = { name: "mail", kind: "email", recipients: ["soc@acme.example"] };
const path = (p: { partnerId: string }) => `/partner/${p.partnerId}/alert-destinations`;

let partner: { partnerId: string; key: string };
beforeAll(async () => {
  partner = await h.newPartner();
});

const destinationsOf = (res: { json: Record<string, unknown> }) =>
  res.json.destinations as Record<string, unknown>[];

async function put(owner: { key: string }, url: string, destinations: unknown[]) {
  return h.call("PUT", url, { key: owner.key, body: { destinations } });
}

describe("PUT /partner/{partnerId}/alert-destinations", () => {
  it("stores the list, shows a new webhook's secret once, and keeps it across PUTs of the same name and URL", async () => {
    const p = await h.newPartner();
    const first = await put(p, path(p), [WEBHOOK, EMAIL]);
    expect(first.status).toBe(200);
    const [hook, mail] = first.json.destinations as Record<string, unknown>[];
    expect(hook).toMatchObject({
      ...WEBHOOK,
      destinationId: expect.any(String),
      alertOn: ["iam-admin-gained", "external-access-gained", "confidential-access-gained"],
      recentAttempts: [],
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(mail).not.toHaveProperty("secret");
    const secret = hook?.secret as string;

    const read = await h.call("GET", path(p), { key: p.key });
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(secret);
    expect(read.json.destinations).toEqual([
      expect.not.objectContaining({ secret: expect.anything() }),
      expect.objectContaining({ kind: "email", recipients: ["soc@acme.example"] }),
    ]);

    const again = await put(p, path(p), [{ ...WEBHOOK, alertOn: ["iam-admin-gained"] }]);
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(secret);
    expect(again.json.destinations).toEqual([
      expect.objectContaining({
        destinationId: hook?.destinationId,
        alertOn: ["iam-admin-gained"],
      }),
    ]);
    expect(destinationsOf(again)[0]).not.toHaveProperty("secret");

    const moved = await put(p, path(p), [{ ...WEBHOOK, url: "https://other.example.com/x" }]);
    const [renewed] = moved.json.destinations as Record<string, unknown>[];
    expect(renewed?.destinationId).not.toBe(hook?.destinationId);
    expect(renewed?.secret).toEqual(expect.any(String));
    expect(renewed?.secret).not.toBe(secret);
  });

  it("rotates a webhook's secret, shown once, only under its owner", async () => {
    const p = await h.newPartner();
    const stored = await put(p, path(p), [WEBHOOK, EMAIL]);
    const [hook, mail] = stored.json.destinations as { destinationId: string; secret?: string }[];
    const rotate = (owner: { partnerId: string; key: string }, id: string) =>
      h.call("POST", `${path(owner)}/${id}/rotate-secret`, { key: owner.key });
    const rotated = await rotate(p, hook?.destinationId as string);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toEqual({
      destinationId: hook?.destinationId,
      secret: expect.any(String),
    });
    expect(rotated.json.secret).not.toBe(hook?.secret);
    expect((await rotate(p, mail?.destinationId as string)).status).toBe(404);
    // Another partner names the destination under its own path: not its destination.
    const other = await h.newPartner();
    const stolen = await rotate(other, hook?.destinationId as string);
    expect(stolen.status).toBe(404);
    expect(stolen.text).not.toContain(p.partnerId);
  });

  it.each([
    ["https://127.0.0.1/", "127.0.0.1 is a loopback address"],
    ["https://10.0.0.1/", "10.0.0.1 is a private address"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"],
    ["https://[::1]/", "::1 is a loopback address"],
    ["https://evil.example/hook", "evil.example resolves to 10.0.0.1, a private address"],
    ["https://metadata.google.internal/computeMetadata/v1/", "a local or cloud metadata host name"],
    ["http://hooks.example.com/sightline", "must be an https:// URL"],
  ])("refuses %s (400 naming the field and the rule) and stores nothing", async (url, rule) => {
    const before = await put(partner, path(partner), [EMAIL]);
    expect(before.status).toBe(200);
    const res = await put(partner, path(partner), [{ ...WEBHOOK, url }]);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("INVALID_INPUT");
    expect(res.json.issues).toEqual([
      { path: "destinations.0.url", message: expect.stringContaining(rule) },
    ]);
    expect(res.json.message).toContain("destinations.0.url");
    const after = await h.call("GET", path(partner), { key: partner.key });
    expect(after.json.destinations).toEqual([expect.objectContaining({ kind: "email" })]);
  });

  it.each([
    [
      { destinations: Array.from({ length: 11 }, (_, i) => ({ ...EMAIL, name: `m${i}` })) },
      "destinations",
      "at most 10 destinations",
    ],
    [
      { destinations: [EMAIL, { ...WEBHOOK, name: "MAIL" }] },
      "destinations.1.name",
      "must be unique",
    ],
    [
      {
        destinations: [
          { ...EMAIL, recipients: Array.from({ length: 21 }, (_, i) => `a${i}@acme.example`) },
        ],
      },
      "destinations.0.recipients",
      "at most 20 recipients",
    ],
    [
      { destinations: [{ ...EMAIL, recipients: ["not-an-address"] }] },
      "destinations.0.recipients.0",
      "must be an email address",
    ],
    [
      { destinations: [{ ...WEBHOOK, alertOn: ["everything"] }] },
      "destinations.0.alertOn.0",
      "Invalid option",
    ],
    [
      { destinations: [{ ...WEBHOOK, url: "https://user:pw@hooks.example.com/" }] },
      "destinations.0.url",
      "must not contain a user name or password",
    ],
    [
      { destinations: [{ ...WEBHOOK, token: "x" }] },
      "destinations.0.token",
      "is not a recognised field",
    ],
    [
      {
        destinations: [
          {
            name: "hub",
            kind: "securityhub",
            roleArn: "arn:aws:iam::123456789012:user/x",
            externalId: "ext-123",
            region: "us-east-1",
          },
        ],
      },
      "destinations.0.roleArn",
      "must be an IAM role ARN",
    ],
    [
      {
        destinations: [
          {
            name: "hub",
            kind: "securityhub",
            roleArn: "arn:aws-us-gov:iam::123456789012:role/x",
            externalId: "ext-123",
            region: "us-east-1",
          },
        ],
      },
      "destinations.0.region",
      "partition (aws-us-gov)",
    ],
  ])("refuses a body breaking a rule: %#", async (body, field, rule) => {
    const res = await h.call("PUT", path(partner), { key: partner.key, body });
    expect(res.status).toBe(400);
    expect(res.json.issues).toContainEqual({ path: field, message: expect.stringContaining(rule) });
  });

  it("refuses an email destination when the operator has no mail relay", async () => {
    const p = await noRelay.newPartner();
    const res = await noRelay.call("PUT", path(p), { key: p.key, body: { destinations: [EMAIL] } });
    expect(res.status).toBe(400);
    expect(res.json.issues).toEqual([
      { path: "destinations.0.kind", message: expect.stringContaining("no mail relay") },
    ]);
  });

  it("refuses (409) a Security Hub role another tenant configured, naming nobody", async () => {
    const hub = {
      name: "hub",
      kind: "securityhub",
      roleArn: "arn:aws:iam::123456789012:role/SharedFindings",
      externalId: "first-tenant-ext",
      region: "us-east-1",
    };
    const first = await h.newPartner();
    expect((await put(first, path(first), [hub])).status).toBe(200);
    const read = await h.call("GET", path(first), { key: first.key });
    expect(destinationsOf(read)[0]).toMatchObject({ roleArn: hub.roleArn, region: "us-east-1" });
    expect(read.text).not.toContain("first-tenant-ext");
    const customer = await h.newDirectCustomer();
    const res = await put(customer, `/customer/${customer.customerId}/alert-destinations`, [
      { ...hub, externalId: "second-tenant-ext" },
    ]);
    expect(res.status).toBe(409);
    expect(res.text).not.toContain(first.partnerId);
    const after = await h.call("GET", `/customer/${customer.customerId}/alert-destinations`, {
      key: customer.key,
    });
    expect(after.json.destinations).toEqual([]);
  });

  it("answers 404 until the partner is configured", async () => {
    const p = await h.newPartner({ configure: false });
    const res = await h.call("GET", path(p), { key: p.key });
    expect(res.status).toBe(404);
    expect(res.json.message).toContain(`PUT /partner/${p.partnerId}`);
  });
});

describe("who may reach alert destinations", () => {
  it("keeps a partner's destinations from other partners and from customers (403, nothing changed)", async () => {
    const victim = await h.newPartner();
    const stored = await put(victim, path(victim), [WEBHOOK]);
    const id = destinationsOf(stored)[0]?.destinationId as string;
    const intruder = await h.newPartner();
    const customer = await h.newDirectCustomer();
    for (const key of [intruder.key, customer.key]) {
      const read = await h.call("GET", path(victim), { key });
      expect(read.status).toBe(403);
      expect(read.json.message).toContain(victim.partnerId);
      const write = await h.call("PUT", path(victim), { key, body: { destinations: [] } });
      expect(write.status).toBe(403);
      const rotate = await h.call("POST", `${path(victim)}/${id}/rotate-secret`, { key });
      expect(rotate.status).toBe(403);
    }
    const after = await h.call("GET", path(victim), { key: victim.key });
    expect(after.json.destinations).toEqual([expect.objectContaining({ destinationId: id })]);
  });

  it("keeps a direct customer's destinations from partners and other customers; the operator may act", async () => {
    const customer = await h.newDirectCustomer();
    const url = `/customer/${customer.customerId}/alert-destinations`;
    expect((await put(customer, url, [WEBHOOK])).status).toBe(200);
    const other = await h.newDirectCustomer();
    for (const key of [partner.key, other.key]) {
      expect((await h.call("GET", url, { key })).status).toBe(403);
      expect((await h.call("PUT", url, { key, body: { destinations: [] } })).status).toBe(403);
    }
    const byOperator = await h.admin("GET", url);
    expect(byOperator.status).toBe(200);
    expect(byOperator.json.destinations).toHaveLength(1);
  });
});

describe("the other configuration PUTs", () => {
  it("never wipe alert destinations: endpoint 6, endpoint 8 and a direct customer's settings", async () => {
    const p = await h.newPartner();
    await put(p, path(p), [WEBHOOK, EMAIL]);
    const before = (await h.call("GET", path(p), { key: p.key })).json;
    const partnerPut = await h.call("PUT", `/partner/${p.partnerId}`, {
      key: p.key,
      body: { partnerId: p.partnerId },
    });
    expect(partnerPut.status).toBe(200);
    await h.newPartnerCustomer(p, "tenant-alerts-01");
    await h.newPartnerCustomer(p, "tenant-alerts-01");
    expect((await h.call("GET", path(p), { key: p.key })).json).toEqual(before);

    const customer = await h.newDirectCustomer();
    const url = `/customer/${customer.customerId}/alert-destinations`;
    await put(customer, url, [EMAIL]);
    const settings = await h.call("PUT", `/customer/${customer.customerId}`, {
      key: customer.key,
      body: { customerId: customer.customerId },
    });
    expect(settings.status).toBe(200);
    expect(
      (
        await h.admin("PUT", `/admin/customers/${customer.customerId}`, {
          customerId: customer.customerId,
        })
      ).status,
    ).toBe(200);
    expect((await h.call("GET", url, { key: customer.key })).json.destinations).toHaveLength(1);
  });
});

describe("the OpenAPI document", () => {
  it("documents the destinations' routes and the webhook Sightline sends", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json as unknown as {
      paths: Record<string, Record<string, { description?: string }>>;
      webhooks: Record<string, { post: { description: string } }>;
    };
    for (const p of [
      "/partner/{partnerId}/alert-destinations",
      "/customer/{customerId}/alert-destinations",
      "/partner/{partnerId}/alert-destinations/{destinationId}/rotate-secret",
    ])
      expect(Object.keys(doc.paths)).toContain(p);
    expect(doc.paths["/partner/{partnerId}/alert-destinations"]?.put?.description).toContain(
      "sightline-signature: v1=",
    );
    expect(doc.webhooks["access-change-alert"]?.post.description).toContain("5 minutes");
  });
});
