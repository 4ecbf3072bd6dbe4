import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AccessEvaluator } from "../src/analyze/access-evaluator.ts";
import { ActionIndex } from "../src/analyze/action-index.ts";
import { accessAt } from "../src/analyze/decision-at.ts";
import { type AccountSnapshot, authorize, createAccountModel } from "../src/index.ts";

const dir = join(import.meta.dirname, "fixtures", "authorize");
const index = new ActionIndex();
const SAMPLE_ACTIONS = [
  "s3:GetObject",
  "s3:PutObject",
  "s3:ListBucket",
  "iam:CreateUser",
  "kms:Decrypt",
  "sts:AssumeRole",
  "ec2:RunInstances",
  "support:DescribeCases",
  "organizations:LeaveOrganization",
];

describe("AccessEvaluator agrees with authorize", () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    it(file, () => {
      const fixture = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
        accounts: AccountSnapshot[];
        cases: { request: { action: string; resource: string } }[];
      };
      const model = createAccountModel(fixture.accounts);
      const evaluator = new AccessEvaluator(model, index);
      const resources = new Set([
        "*",
        ...fixture.cases.map((c) => c.request.resource),
        ...model.resourcePolicies.keys(),
      ]);
      // The fixtures' own actions too (lower-cased: the catalogue's spelling need not match).
      const actions = new Set([...SAMPLE_ACTIONS, ...fixture.cases.map((c) => c.request.action)]);
      let checked = 0;
      for (const principal of model.principals.values()) {
        for (const resource of resources) {
          for (const action of actions) {
            const i = index.indexOf(action);
            if (i === undefined) continue;
            const info = index.actions[i];
            const window = index.windows.get(info?.prefix ?? "") ?? index.fullWindow;
            const expected = authorize(model, {
              principal: principal.arn,
              action,
              resource,
            }).decision;
            const level = accessAt(
              evaluator.evaluatePrincipal(principal, resource, window),
              window,
              i,
            );
            const want = expected === "allowed" || expected === "conditional" ? expected : "denied";
            expect(level, `${principal.arn} ${action} ${resource}`).toBe(want);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
