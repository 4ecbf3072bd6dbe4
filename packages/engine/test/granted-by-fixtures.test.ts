import { describe, expect, it } from "vitest";
import { type AccountSnapshot, analyzeAccount, type GrantSource } from "../src/index.ts";
import { readFixtures } from "./support/fixture-files.ts";

/** Which policy grants each row of `analyzeAccount` (issue 10, "Which policy grants it"). */
interface Fixture {
  description: string;
  accounts: AccountSnapshot[];
  principalAccess?: {
    principal: string;
    service: string;
    capability: string;
    /** "" for service-wide. */
    resource: string;
    exceptResources?: string[];
    grantedBy: GrantSource[];
  }[];
  resourceAccess?: {
    resource: string;
    principal: string;
    capability: string;
    grantedBy: GrantSource[];
  }[];
  principals?: {
    principal: string;
    iamAdminGrantedBy: GrantSource[];
    /** The exact list, or actions it must (not) contain. */
    iamAdminActions?: string[];
    iamAdminActionsInclude?: string[];
    iamAdminActionsExclude?: string[];
  }[];
}

const fixtures = readFixtures<Fixture>("granted-by");

describe("granted-by fixtures", () => {
  it("has fixtures, each citing documentation", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(6);
    for (const { file, fixture } of fixtures) {
      expect(fixture.description, file).toMatch(/'[^']{5,}'/);
    }
  });

  for (const { name, fixture } of fixtures) {
    describe(name, () => {
      const analysis = analyzeAccount(fixture.accounts);
      it("parses without errors", () => {
        expect(analysis.issues.filter((i) => i.severity === "error")).toEqual([]);
      });
      const principalRows = [...analysis.principalAccessSummaries()];
      const resourceRows = [...analysis.resourceAccessSummaries()];

      it("every row says what grants it", () => {
        expect(principalRows).not.toHaveLength(0);
        expect(analysis.principals).not.toHaveLength(0);
        for (const row of [...principalRows, ...resourceRows])
          expect(Array.isArray(row.grantedBy), JSON.stringify(row)).toBe(true);
        for (const row of analysis.principals) {
          expect(Array.isArray(row.iamAdminGrantedBy)).toBe(true);
          expect(Array.isArray(row.iamAdminActions)).toBe(true);
        }
      });

      for (const want of fixture.principalAccess ?? [])
        it(`principal access: ${want.principal} ${want.service} ${want.capability} ${want.resource || "*"}`, () => {
          const row = principalRows.find(
            (r) =>
              r.principalArn === want.principal &&
              r.service === want.service &&
              r.capability === want.capability &&
              r.resourceArn === want.resource,
          );
          expect(row, "the row exists").toBeDefined();
          expect(row?.grantedBy).toEqual(want.grantedBy);
          if (want.exceptResources) expect(row?.exceptResources).toEqual(want.exceptResources);
        });

      for (const want of fixture.resourceAccess ?? [])
        it(`resource access: ${want.resource} ${want.principal} ${want.capability}`, () => {
          const row = resourceRows.find(
            (r) =>
              r.resourceArn === want.resource &&
              r.principal === want.principal &&
              r.capability === want.capability,
          );
          expect(row, "the row exists").toBeDefined();
          expect(row?.grantedBy).toEqual(want.grantedBy);
        });

      for (const want of fixture.principals ?? [])
        it(`IAM admin: ${want.principal}`, () => {
          const row = analysis.principals.find((r) => r.principalArn === want.principal);
          expect(row, "the principal exists").toBeDefined();
          expect(row?.iamAdmin).toBe(want.iamAdminGrantedBy.length > 0 ? "yes" : "no");
          expect(row?.iamAdminGrantedBy).toEqual(want.iamAdminGrantedBy);
          if (want.iamAdminActions) expect(row?.iamAdminActions).toEqual(want.iamAdminActions);
          for (const action of want.iamAdminActionsInclude ?? [])
            expect(row?.iamAdminActions).toContain(action);
          for (const action of want.iamAdminActionsExclude ?? [])
            expect(row?.iamAdminActions).not.toContain(action);
        });
    });
  }
});
