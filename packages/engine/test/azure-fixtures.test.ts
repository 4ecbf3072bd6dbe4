import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AzureAnalysis } from "../src/azure/analyze-azure.ts";
import { sharedAzureOperationIndex } from "../src/azure/azure-operations.ts";
import {
  type AzureRoleDefinitionInput,
  type AzureSnapshot,
  analyzeAzureSubscription,
} from "../src/azure/index.ts";
import { readAzureSnapshot } from "../src/azure/read-azure-snapshot.ts";
import type { AccessLevel, PrincipalAccessSummary, ResourceAccessSummary } from "../src/index.ts";
import { expectIssuesMention, readFixtures } from "./support/fixture-files.ts";

interface RowExpectation {
  principal: string;
  service: string;
  capability: string;
  resourceArn?: string;
  conditional?: boolean;
  /** With it, the row's scopes cut with their subtree, and those cut alone (below) are checked. */
  exceptResources?: string[];
  /** Scopes cut at that scope only (`doNotApplyToChildScopes`); none when omitted. */
  exceptResourcesThisScopeOnly?: string[];
  /** Role names of the granting assignments (exactly). */
  grantedBy?: string[];
  /** Every granting assignment is received through this group. */
  group?: string;
}

interface AzureFixture {
  description: string;
  /** Built-in roles by name, from `az role definition list` output kept in @sightline/capabilities. */
  builtInRoles?: string[];
  snapshot: AzureSnapshot;
  /** Texts that must each appear in some issue. */
  issues?: string[];
  cases: {
    name?: string;
    principal: string;
    operation: string;
    scope: string;
    expect: AccessLevel;
  }[];
  rows?: RowExpectation[];
  absentRows?: RowExpectation[];
  principalRows?: {
    principal: string;
    principalType?: string;
    iamAdmin?: string;
    iamAdminGrantedBy?: string[];
    iamAdminActions?: string[];
    groups?: string[];
  }[];
  /** Resource rows expected (exactly), by resource ID. */
  resources?: string[];
  resourceRows?: (RowExpectation & { resourceArn: string })[];
  absentResourceRows?: (RowExpectation & { resourceArn: string })[];
}

const builtIns = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "../../capabilities/reference/azure/built-in-roles-raw.json"),
    "utf8",
  ),
) as Omit<AzureRoleDefinitionInput, "id">[];

export function withBuiltInRoles(snapshot: AzureSnapshot, names: readonly string[]): AzureSnapshot {
  const roles = names.map((name) => {
    const role = builtIns.find((r) => r.roleName === name);
    if (!role) throw new Error(`no built-in role ${name}`);
    return {
      ...role,
      id: `/subscriptions/${snapshot.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${role.name}`,
    };
  });
  return { ...snapshot, roleDefinitions: [...snapshot.roleDefinitions, ...roles] };
}

const fixtures = readFixtures<AzureFixture>("azure");
const lower = (s: string) => s.toLowerCase();

function matches(row: PrincipalAccessSummary | ResourceAccessSummary, e: RowExpectation) {
  const principal = "principalArn" in row ? row.principalArn : row.principal;
  const resource = "principalArn" in row ? row.resourceArn : row.resourceArn;
  return (
    lower(principal) === lower(e.principal) &&
    row.service === e.service &&
    row.capability === e.capability &&
    (e.resourceArn === undefined || lower(resource) === lower(e.resourceArn))
  );
}

function checkRow(row: PrincipalAccessSummary | ResourceAccessSummary, e: RowExpectation) {
  if (e.conditional !== undefined) expect(row.conditional).toBe(e.conditional);
  if (e.exceptResources && "exceptResources" in row) {
    expect(row.exceptResources.map(lower)).toEqual(e.exceptResources.map(lower));
    expect((row.exceptResourcesThisScopeOnly ?? []).map(lower)).toEqual(
      (e.exceptResourcesThisScopeOnly ?? []).map(lower),
    );
  }
  if (e.grantedBy)
    expect((row.grantedBy ?? []).map((g) => g.policyName).sort()).toEqual([...e.grantedBy].sort());
  for (const g of row.grantedBy ?? []) {
    expect(g.policyType).toBe("role-assignment");
    expect(g.policyArn).toMatch(/\/providers\/Microsoft\.Authorization\/roleAssignments\//);
    if (e.group) expect(g.group).toBe(e.group);
  }
}

describe("Azure fixtures", () => {
  it("has fixtures, each citing Microsoft Learn", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    for (const { file, fixture } of fixtures) {
      expect(fixture.description, file).toMatch(/^Microsoft Learn, '[^']{5,}'/);
    }
  });

  for (const { name, fixture } of fixtures) {
    const snapshot = withBuiltInRoles(fixture.snapshot, fixture.builtInRoles ?? []);
    describe(name, () => {
      const analysis = analyzeAzureSubscription(snapshot);
      const bits = new AzureAnalysis(readAzureSnapshot(snapshot), sharedAzureOperationIndex());
      const rows = [...analysis.principalAccessSummaries()];
      const resourceRows = [...analysis.resourceAccessSummaries()];

      it(fixture.issues ? "reports the expected issues" : "reads without issues", () => {
        if (!fixture.issues)
          expect(analysis.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([]);
        expectIssuesMention(analysis.issues, fixture.issues ?? []);
      });

      fixture.cases.forEach((c, i) => {
        it(c.name ?? `case ${i}: ${c.operation} at ${c.scope || "the subscription"}`, () => {
          expect(analysis.accessOf(c.principal, c.operation, c.scope)).toBe(c.expect);
          // The rows' bit sets agree with the direct evaluation.
          expect(bits.levelFromBits(c.principal, c.operation, c.scope)).toBe(c.expect);
        });
      });

      for (const e of fixture.rows ?? [])
        it(`row: ${e.principal} ${e.service} ${e.capability} at '${e.resourceArn ?? ""}'`, () => {
          const found = rows.filter((r) => matches(r, e));
          expect(
            found,
            JSON.stringify(
              rows
                .filter((r) => r.principalArn === e.principal)
                .map((r) => [r.service, r.capability, r.resourceArn]),
            ),
          ).toHaveLength(1);
          checkRow(found[0] as PrincipalAccessSummary, e);
        });
      for (const e of fixture.absentRows ?? [])
        it(`no row: ${e.principal} ${e.service} ${e.capability} at '${e.resourceArn ?? "any scope"}'`, () => {
          expect(rows.filter((r) => matches(r, e))).toEqual([]);
        });
      for (const e of fixture.principalRows ?? [])
        it(`principal row: ${e.principal}`, () => {
          const row = analysis.principals.find((p) => p.principalArn === e.principal);
          expect(row).toBeDefined();
          if (e.principalType) expect(row?.principalType).toBe(e.principalType);
          if (e.iamAdmin) expect(row?.iamAdmin).toBe(e.iamAdmin);
          if (e.groups) expect([...(row?.groupArns ?? [])].sort()).toEqual([...e.groups].sort());
          if (e.iamAdminGrantedBy)
            expect(row?.iamAdminGrantedBy?.map((g) => g.policyName).sort()).toEqual(
              e.iamAdminGrantedBy,
            );
          for (const action of e.iamAdminActions ?? [])
            expect(row?.iamAdminActions).toContain(action);
        });
      if (fixture.resources)
        it("lists the subscription and the scopes with assignments of their own", () => {
          expect(analysis.resources.map((r) => lower(r.resourceArn)).sort()).toEqual(
            fixture.resources?.map(lower).sort(),
          );
        });
      for (const e of fixture.resourceRows ?? [])
        it(`resource row: ${e.resourceArn} ${e.principal} ${e.service} ${e.capability}`, () => {
          const found = resourceRows.filter((r) => matches(r, e));
          expect(found).toHaveLength(1);
          checkRow(found[0] as ResourceAccessSummary, e);
        });
      for (const e of fixture.absentResourceRows ?? [])
        it(`no resource row: ${e.resourceArn} ${e.principal} ${e.service} ${e.capability}`, () => {
          expect(resourceRows.filter((r) => matches(r, e))).toEqual([]);
        });
    });
  }
});
