import { listAwsActions } from "@sightline/capabilities";
import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  analyzeAccount,
  authorize,
  createAccountModel,
  type GrantSource,
  isAlwaysAllowedAction,
  type ResourceAccessSummary,
} from "../src/index.ts";
import { readFixtures } from "./support/fixture-files.ts";

/** Every resource-access row of some S3 buckets, in no particular order (issue 20). */
interface Fixture {
  description: string;
  accounts: AccountSnapshot[];
  resources: {
    resource: string;
    resourceType: string;
    /** All of the resource's rows: `[]` when nobody holds a capability on it. */
    rows: {
      principal: string;
      capability: string;
      conditional: boolean;
      inAccount: boolean;
      grantedBy: GrantSource[];
    }[];
  }[];
}

const fixtures = readFixtures<Fixture>("resource-access");
const s3Actions = listAwsActions().filter(
  (a) => a.prefix === "s3" && !isAlwaysAllowedAction(a.action),
);

/** Capability → conditional, for one principal on a bucket, as `authorize` decides each action. */
function levelsByAuthorize(
  model: ReturnType<typeof createAccountModel>,
  principal: string,
  bucket: string,
): Map<string, boolean> {
  const levels = new Map<string, boolean>();
  for (const info of s3Actions) {
    // Object-level actions are decided on `bucket/*`, as the analysis does (README).
    const objectOnly =
      info.resourceTypes.includes("object") && !info.resourceTypes.includes("bucket");
    const resource = objectOnly ? `${bucket}/*` : bucket;
    const { decision } = authorize(model, { principal, action: info.action, resource });
    if (decision !== "allowed" && decision !== "conditional") continue;
    for (const capability of info.capabilities)
      levels.set(capability, (levels.get(capability) ?? true) && decision === "conditional");
  }
  return levels;
}

const byKey = (a: { principal: string; capability: string }) => `${a.principal}|${a.capability}`;
const sorted = <T extends { principal: string; capability: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => byKey(a).localeCompare(byKey(b)));

describe("resource access fixtures", () => {
  it("has fixtures, each citing documentation", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
    for (const { file, fixture } of fixtures)
      expect(fixture.description, file).toMatch(/'[^']{5,}'/);
  });

  for (const { name, fixture } of fixtures) {
    describe(name, () => {
      const model = createAccountModel(fixture.accounts);
      const analysis = analyzeAccount(model);
      const rows = [...analysis.resourceAccessSummaries()];
      it("parses without errors", () => {
        expect(model.issues.filter((i) => i.severity === "error")).toEqual([]);
      });

      for (const want of fixture.resources) {
        const mine = rows.filter((r) => r.resourceArn === want.resource);
        it(`${want.resource} is a resource of the analysis`, () => {
          expect(analysis.resources.find((r) => r.resourceArn === want.resource)).toMatchObject({
            resourceType: want.resourceType,
            allowsAnyPrincipal: false,
          });
        });

        it(`${want.resource}: exactly the expected rows`, () => {
          const got = mine.map((r: ResourceAccessSummary) => ({
            principal: r.principal,
            capability: r.capability,
            conditional: r.conditional,
            inAccount: r.inAccount,
            grantedBy: r.grantedBy,
          }));
          expect(sorted(got)).toEqual(sorted(want.rows));
        });

        it(`${want.resource}: the rows agree with authorize for every principal`, () => {
          expect(model.principals.size).toBeGreaterThan(0);
          for (const principal of model.principals.keys()) {
            const got = new Map(
              mine
                .filter((r) => r.principal === principal)
                .map((r) => [r.capability, r.conditional]),
            );
            expect(got, principal).toEqual(levelsByAuthorize(model, principal, want.resource));
          }
        });
      }
    });
  }
});
