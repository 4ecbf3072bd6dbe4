import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AuthorizationRequest, authorize, type Decision } from "../src/index.ts";
import {
  ACTIONS,
  buildModel,
  LOCATIONS,
  type Location,
  NARROW_PATTERNS,
  RESOURCES,
  ROLE,
  type Scenario,
  scenarioArb,
  scenarioOf,
  statementArb,
  USER,
  USER2,
} from "./support/random-account.ts";

type Json = Record<string, unknown>;

const RANK: Record<Decision, number> = {
  "explicit-deny": 0,
  "implicit-deny": 0,
  conditional: 1,
  allowed: 2,
};
const requestArb = fc.record({
  principal: fc.constantFrom(USER, USER2, ROLE),
  action: fc.constantFrom(...ACTIONS),
  resource: fc.constantFrom(...RESOURCES),
});
const decide = (s: Scenario, r: AuthorizationRequest) => authorize(buildModel(s), r).decision;

function addStatement(s: Scenario, where: Location, statement: Json): Scenario {
  const usesPrincipal =
    where === "bucketPolicy" || where === "trustPolicy" || where === "keyPolicy";
  const clean = usesPrincipal
    ? statement
    : Object.fromEntries(Object.entries(statement).filter(([k]) => k !== "Principal"));
  return { ...s, [where]: [...(s[where] ?? []), clean] };
}

describe("authorize properties", () => {
  it("adding a Deny statement never widens access", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.constantFrom(...LOCATIONS),
        statementArb("Deny", true),
        (s, r, where, st) => {
          if (where === "boundary" && !s.boundary) return;
          if (where === "scp" && !s.scp) return;
          expect(RANK[decide(addStatement(s, where, st), r)]).toBeLessThanOrEqual(
            RANK[decide(s, r)],
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("adding an Allow statement never narrows access", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.constantFrom(...LOCATIONS),
        statementArb("Allow", true),
        (s, r, where, st) => {
          // A new boundary or SCP layer is a new limit, not an added Allow.
          if (where === "boundary" && !s.boundary) return;
          if (where === "scp" && !s.scp) return;
          expect(RANK[decide(addStatement(s, where, st), r)]).toBeGreaterThanOrEqual(
            RANK[decide(s, r)],
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never grants an action that no policy names", () => {
    fc.assert(
      fc.property(scenarioOf(NARROW_PATTERNS), requestArb, (s, r) => {
        const unnamed = { ...r, action: "unnamedservice:DoSomething" };
        expect(decide(s, unnamed)).toBe("implicit-deny");
      }),
      { numRuns: 300 },
    );
  });
});
