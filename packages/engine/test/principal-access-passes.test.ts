import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateAccount, SIZES } from "../bench/generate-account.ts";
import { analyzeAccount, createAccountModel, type PrincipalAccessSummary } from "../src/index.ts";

/**
 * The policy sets' grants are let go after a pass over the principal-access rows and made again
 * for the next one (analyze-account.ts, `SummaryGrants`): every pass must give the same rows,
 * however passes overlap or stop early.
 */

const rowsOf = (rows: Iterable<PrincipalAccessSummary>) => [...rows];

function analyses() {
  const gaad = JSON.parse(
    readFileSync(new URL("./reference/gaad/cloudsplaining.example.json", import.meta.url), "utf8"),
  );
  return [
    ["the reference account", analyzeAccount(createAccountModel({ authorizationDetails: gaad }))],
    [
      "a generated account of policy sets shared by several members",
      analyzeAccount(generateAccount(SIZES.small)),
    ],
  ] as const;
}

describe("principal-access rows over several passes", () => {
  for (const [label, analysis] of analyses()) {
    it(`gives the same rows on every pass: ${label}`, () => {
      // accessOf reads the decision sets that a pass lets go: asked again after it, it evaluates.
      const asked = analysis.principals
        .slice(0, 40)
        .flatMap((p) =>
          ["s3:GetObject", "iam:CreateUser", "sts:AssumeRole", "kms:Decrypt"].flatMap((action) =>
            ["*", "arn:aws:s3:::bucket-1/key"].map(
              (resource) => [p.principalArn, action, resource] as const,
            ),
          ),
        );
      const answers = asked.map(([p, a, r]) => analysis.accessOf(p, a, r));
      const first = rowsOf(analysis.principalAccessSummaries());
      expect(first.length).toBeGreaterThan(100);
      // The second pass starts after the grants were let go: they are made again.
      expect(asked.map(([p, a, r]) => analysis.accessOf(p, a, r))).toEqual(answers);
      expect(rowsOf(analysis.principalAccessSummaries())).toEqual(first);

      // Two passes under way at once, read in turn; then one stopped early, then a whole one.
      const a = analysis.principalAccessSummaries();
      const b = analysis.principalAccessSummaries();
      const fromA: PrincipalAccessSummary[] = [];
      const fromB: PrincipalAccessSummary[] = [];
      for (let done = false; !done; ) {
        const x = a.next();
        const y = b.next();
        if (!x.done) fromA.push(x.value);
        if (!y.done) fromB.push(y.value);
        done = Boolean(x.done && y.done);
      }
      expect(fromA).toEqual(first);
      expect(fromB).toEqual(first);
      const partial = analysis.principalAccessSummaries();
      for (let i = 0; i < 10; i++) partial.next();
      partial.return(undefined);
      expect(rowsOf(analysis.principalAccessSummaries())).toEqual(first);
    });
  }
});
