import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { awsAccount, createHarness } from "./harness.ts";

const h = await createHarness();
let pc: { partnerId: string; key: string; partnerCustomerId: string; customerId: string };

beforeAll(async () => {
  pc = await h.newPartnerCustomer(await h.newPartner(), "prop-tenant");
});

async function state() {
  const partner = await h.call("GET", `/partner/${pc.partnerId}`, { key: pc.key });
  const accounts = await h.call(
    "GET",
    `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`,
    { key: pc.key },
  );
  return [partner.json, accounts.json];
}

/** Valid bodies whose fields fast-check replaces with arbitrary JSON, one or more at a time. */
const templates = () => [
  {
    path: `/partner/${pc.partnerId}`,
    body: { partnerId: pc.partnerId, configs: { oemIntegrationEnabled: false } },
  },
  {
    path: `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}`,
    body: {
      partnerId: pc.partnerId,
      partnerCustomerId: pc.partnerCustomerId,
      subscriptionPlanName: "Team",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    },
  },
  {
    path: `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012`,
    body: awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId),
  },
];

const mutation = fc.record({
  template: fc.nat(2),
  changes: fc.array(fc.tuple(fc.string({ maxLength: 24 }), fc.jsonValue({ maxDepth: 3 })), {
    minLength: 1,
    maxLength: 3,
  }),
  pick: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
});

describe("property: malformed input gets a 4xx, never a 500, and never a write", () => {
  it("holds for bodies with fields replaced or added at random", async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async ({ template, changes, pick }) => {
        const chosen = templates()[template];
        if (!chosen) return;
        const body: Record<string, unknown> = structuredClone(chosen.body);
        const keys = Object.keys(body);
        changes.forEach(([newKey, value], i) => {
          // Half the time overwrite an existing field (the interesting case), otherwise add one.
          const key =
            (pick[i] ?? 0) % 2 === 0 ? (keys[(pick[i] ?? 0) % keys.length] ?? newKey) : newKey;
          body[key] = value;
        });
        const before = await state();
        const res = await h.call("PUT", chosen.path, { key: pc.key, body });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.json.message).toBe("string");
          expect(await state()).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("holds for arbitrary JSON bodies", async () => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(fc.nat(2), fc.jsonValue({ maxDepth: 4 }), async (template, body) => {
        const chosen = templates()[template];
        if (!chosen) return;
        const res = await h.call("PUT", chosen.path, { key: pc.key, body: JSON.stringify(body) });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    expect(await state()).toEqual(before);
  });

  it("holds for arbitrary path identifiers on every route", async () => {
    const before = await state();
    const segment = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.stringMatching(/^[A-Za-z0-9_.%-]{0,70}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("PUT", "GET", "DELETE"),
        segment,
        segment,
        async (method, a, b) => {
          const path = `/partner/${encodeURIComponent(a)}/customer/${encodeURIComponent(b)}/account/${encodeURIComponent(b)}`;
          const res = await h.call(method, path, {
            key: pc.key,
            body: method === "PUT" ? { partnerId: a } : undefined,
          });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect(await state()).toEqual(before);
  });
});
