import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeAccount } from "../src/index.ts";
import { buildModel, KEY, PATTERNS, ROLE, scenarioArb } from "./support/random-account.ts";

/**
 * Random accounts whose identity policies single out resources that resource-based policies
 * govern (a bucket policy, a key policy, a role's trust): an Allow on one of them leads each
 * principal's policy, so that what the resource's policy grants shows in the principal's rows.
 */
const singledOut = fc.record({
  Effect: fc.constant("Allow"),
  Action: fc.subarray(PATTERNS, { minLength: 1, maxLength: 2 }),
  Resource: fc.subarray(["arn:aws:s3:::a/*", "arn:aws:s3:::b/k", KEY, ROLE], { minLength: 1 }),
});
const scenario = fc.tuple(scenarioArb, singledOut, singledOut).map(([s, user, role]) => ({
  ...s,
  userPolicy: [user, ...s.userPolicy],
  rolePolicy: [role, ...s.rolePolicy],
}));

// Before the principal rows named resource policies, this found a row granted by a key policy
// alone (`kms:Decrypt` on the key) with an empty list within the first 200 accounts.
describe("granted-by on random accounts", () => {
  it("names a granting policy for every principal row", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const model = buildModel(s);
        for (const row of analyzeAccount(model).principalAccessSummaries())
          expect((row.grantedBy ?? []).length, JSON.stringify(row)).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  }, 180_000);
});
