import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  type AuthorizationRequest,
  authorize,
  createAccountModel,
} from "../src/index.ts";
import { expectIssuesMention, readFixtures } from "./support/fixture-files.ts";

interface FixtureCase {
  name?: string;
  request: AuthorizationRequest;
  expect: {
    decision: string;
    stoppedBy?: string;
    /** `policyName/statement` labels that must be among the matched statements. */
    statements?: string[];
    /** Condition keys that must appear among the undecided conditions. */
    conditionKeys?: string[];
    /** Operators (`Variable`, `UnresolvedVariable`, …) that must appear among them. */
    conditionOperators?: string[];
  };
}

interface Fixture {
  description: string;
  /** Paths of the parse errors the fixture's snapshots are meant to have (invalid policies). */
  expectIssues?: string[];
  accounts: AccountSnapshot[];
  /** Texts that must each appear in some message of `model.issues`. */
  issues?: string[];
  cases: FixtureCase[];
}

const fixtures = readFixtures<Fixture>("authorize");

describe("authorize fixtures", () => {
  it("has fixtures, each citing documentation", () => {
    expect(fixtures.length).toBeGreaterThan(20);
    for (const { file, fixture } of fixtures) {
      expect(fixture.description, file).toMatch(/'[^']{5,}'/);
    }
  });

  for (const { name, fixture } of fixtures) {
    describe(name, () => {
      const model = createAccountModel(fixture.accounts);
      it(fixture.expectIssues ? "reports its invalid statements" : "parses without errors", () => {
        const errors = model.issues.filter((i) => i.severity === "error").map((i) => i.path);
        expect(errors).toEqual(fixture.expectIssues ?? []);
      });
      if (fixture.issues)
        it("reports the expected issues", () => {
          expectIssuesMention(model.issues, fixture.issues ?? []);
        });
      fixture.cases.forEach((c, i) => {
        it(
          c.name ?? `case ${i}: ${c.request.principal} ${c.request.action} ${c.request.resource}`,
          () => {
            const result = authorize(model, c.request);
            expect(result.decision).toBe(c.expect.decision);
            if (c.expect.stoppedBy) expect(result.stoppedBy).toBe(c.expect.stoppedBy);
            const labels = result.statements.map((s) => `${s.policyName}/${s.statement}`);
            for (const label of c.expect.statements ?? []) expect(labels).toContain(label);
            const keys = result.conditions.map((a) => a.key.toLowerCase());
            for (const key of c.expect.conditionKeys ?? [])
              expect(keys).toContain(key.toLowerCase());
            const operators = result.conditions.map((a) => a.operator);
            for (const operator of c.expect.conditionOperators ?? [])
              expect(operators).toContain(operator);
          },
        );
      });
    });
  }
});
