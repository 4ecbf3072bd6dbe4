import { describe, expect, it } from "vitest";
import {
  compareWithK9,
  formatK9Comparison,
  formatLeaveOneServiceOut,
  K9_2021,
  K9_2022,
  leaveOneServiceOut,
} from "../scripts/compare-k9.ts";

// k9 Security's published map is the reference: rules plus overrides must agree on ≥ 97% of its
// actions, and every disagreement we keep must carry a reason in the override table.
describe("agreement with k9's capability map", () => {
  const primary = compareWithK9(K9_2022);

  it("agrees on at least 97% of the 2022 reference actions", () => {
    console.log(formatK9Comparison(primary));
    expect(primary.compared).toBeGreaterThan(400);
    expect(primary.agreement).toBeGreaterThanOrEqual(0.97);
  });

  it("gives a reason for every kept disagreement", () => {
    expect(primary.disagreements.filter((d) => !d.reason).map((d) => d.action)).toEqual([]);
  });

  it("reports reference actions that iam-data no longer has separately", () => {
    // k9 lists a dynamodbstreams: prefix; IAM authorises DynamoDB Streams under dynamodb:.
    expect(primary.missing).toContain("dynamodbstreams:getrecords");
    const disagreeing = new Set(primary.disagreements.map((d) => d.action.toLowerCase()));
    expect(primary.missing.filter((a) => disagreeing.has(a))).toEqual([]);
  });

  it("also reports against the 2021 full map", () => {
    const full = compareWithK9(K9_2021);
    console.log(formatK9Comparison(full));
    expect(full.agreement).toBeGreaterThanOrEqual(0.95);
  });

  it("generalises: leave-one-service-out agreement stays at least 96.5%", () => {
    const held = leaveOneServiceOut(K9_2022);
    console.log(formatLeaveOneServiceOut(held));
    expect(held.compared).toBe(primary.compared);
    expect(held.agreement).toBeGreaterThanOrEqual(0.965);
  });
});
