import { listAwsActions } from "@sightline/capabilities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AccessLevel,
  analyzeAccount,
  authorize,
  isAlwaysAllowedAction,
} from "../src/index.ts";
import {
  ACTIONS,
  buildModel,
  KEY,
  RESOURCES,
  ROLE,
  scenarioArb,
  USER,
  USER2,
} from "./support/random-account.ts";

const level = (d: string): AccessLevel => (d === "allowed" || d === "conditional" ? d : "denied");
const SERVICE_ACTIONS = new Map<
  string,
  { action: string; service: string; capabilities: readonly string[]; object: boolean }[]
>();
for (const a of listAwsActions()) {
  if (!["s3", "kms", "sts"].includes(a.prefix)) continue;
  const object = a.resourceTypes.includes("object") && !a.resourceTypes.includes("bucket");
  SERVICE_ACTIONS.set(a.prefix, [
    ...(SERVICE_ACTIONS.get(a.prefix) ?? []),
    { action: a.action, service: a.service, capabilities: a.capabilities, object },
  ]);
}

// Each property checks a fixed number of random accounts: about 10 s on a quiet machine, more than
// 60 s while CI runs every package's tests at once on two cores.
describe("analysis agrees with authorize on random accounts", () => {
  it("per action, on `*` and on specific resources", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const model = buildModel(s);
        const analysis = analyzeAccount(model);
        for (const principal of [USER, USER2, ROLE]) {
          for (const action of ACTIONS) {
            for (const resource of RESOURCES) {
              const want = level(authorize(model, { principal, action, resource }).decision);
              expect(
                analysis.accessOf(principal, action, resource),
                `${principal} ${action} ${resource}`,
              ).toBe(want);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  }, 180_000);

  it("in the resource access summaries", () => {
    const resources: [string, string][] = [
      ["arn:aws:s3:::a", "s3"],
      ["arn:aws:s3:::d", "s3"],
      [KEY, "kms"],
      [ROLE, "sts"],
    ];
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const model = buildModel(s);
        const rows = [...analyzeAccount(model).resourceAccessSummaries()];
        for (const principal of [USER, USER2, ROLE]) {
          for (const [resource, prefix] of resources) {
            const expected = new Map<string, boolean>();
            for (const info of SERVICE_ACTIONS.get(prefix) ?? []) {
              const literal = info.object ? `${resource}/*` : resource;
              const want = level(
                authorize(model, { principal, action: info.action, resource: literal }).decision,
              );
              if (want === "denied" || isAlwaysAllowedAction(info.action)) continue;
              for (const cap of info.capabilities) {
                const key = `${info.service}|${cap}`;
                expected.set(key, (expected.get(key) ?? true) && want === "conditional");
              }
            }
            const got = new Map(
              rows
                .filter((r) => r.resourceArn === resource && r.principal === principal)
                .map((r) => [`${r.service}|${r.capability}`, r.conditional]),
            );
            expect(got, `${principal} on ${resource}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
