import { describe, expect, it } from "vitest";
import { checkAgreement, collectRows, sampleRequests } from "../bench/check-agreement.ts";
import { generateAccount, SIZES } from "../bench/generate-account.ts";
import { analyzeAccount, createAccountModel } from "../src/index.ts";

describe("benchmark generator and agreement check (small size)", () => {
  it("generates the same account for the same seed", () => {
    expect(JSON.stringify(generateAccount(SIZES.small, 3))).toBe(
      JSON.stringify(generateAccount(SIZES.small, 3)),
    );
    expect(JSON.stringify(generateAccount(SIZES.small, 3))).not.toBe(
      JSON.stringify(generateAccount(SIZES.small, 4)),
    );
  });

  it("finds the analysis in agreement with authorize on sampled requests", () => {
    const model = createAccountModel(generateAccount(SIZES.small));
    expect(model.principals.size).toBe(100);
    const analysis = analyzeAccount(model);
    const sampled = sampleRequests(model, {
      fullPrincipals: 2,
      randomRequests: 2000,
      resourcePairs: 30,
    });
    const { principalRows, resourceRows } = collectRows(analysis, sampled);
    const report = checkAgreement(model, analysis, principalRows, resourceRows, sampled);
    expect(report.checked).toBeGreaterThan(40_000);
    expect(report.mismatches).toEqual([]);
  });

  it("reports a mismatch when the analysis disagrees", () => {
    const model = createAccountModel(generateAccount(SIZES.small));
    const analysis = analyzeAccount(model);
    const lying = { ...analysis, accessOf: () => "allowed" as const };
    const sampled = sampleRequests(model, {
      fullPrincipals: 0,
      randomRequests: 200,
      resourcePairs: 0,
    });
    expect(
      checkAgreement(model, lying, new Map(), new Map(), sampled).mismatches.length,
    ).toBeGreaterThan(0);
  });
});
