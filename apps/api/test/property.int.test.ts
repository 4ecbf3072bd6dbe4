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

  it("holds for prototype keys and control characters at every depth (10,000 cases)", async () => {
    const before = await state();
    const hostileKey = fc.oneof(
      fc.constantFrom("__proto__", "constructor", "prototype", "toString", "valueOf"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 8 }),
    );
    const hostileString = fc.oneof(
      fc.constantFrom("\u0000", "a\u0000b", "\u0007", "line\nbreak", "\u009f", "\ud800"),
      fc.string({ unit: "binary", maxLength: 16 }),
    );
    const hostileValue = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        hostileString,
        fc.dictionary(hostileKey, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    /** Defines `key` as an own enumerable field (so `__proto__` is a field, as JSON.parse makes it). */
    const put = (target: Record<string, unknown>, key: string, value: unknown) =>
      Object.defineProperty(target, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(2),
        fc.array(fc.nat(), { maxLength: 3 }),
        hostileKey,
        hostileValue,
        async (template, walk, key, value) => {
          const chosen = templates()[template];
          if (!chosen) return;
          const body = structuredClone(chosen.body) as Record<string, unknown>;
          // Walk down into nested objects (auditorAuthConfig, configs, …), then plant the key.
          let node = body;
          for (const step of walk) {
            const objects = Object.values(node).filter(
              (v): v is Record<string, unknown> =>
                !!v && typeof v === "object" && !Array.isArray(v),
            );
            const next = objects[step % Math.max(objects.length, 1)];
            if (!next) break;
            node = next;
          }
          put(node, key, value);
          const res = await h.call("PUT", chosen.path, { key: pc.key, body: JSON.stringify(body) });
          if (res.status >= 500) failures++;
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 10_000 },
    );
    expect(failures).toBe(0);
    expect(await state()).toEqual(before);
  }, 300_000);
});
