import { listAwsActions } from "@sightline/capabilities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { authorize, isAlwaysAllowedAction } from "../src/index.ts";
import { resolveTarget } from "../src/paths/access-target.ts";
import { capabilityHolders } from "../src/paths/capability-holders.ts";
import {
  ACCOUNT,
  buildModel,
  KEY,
  ROLE,
  scenarioArb,
  USER,
  USER2,
} from "./support/random-account.ts";

/** The S3 and KMS actions, each with its capabilities and whether it is decided on `bucket/*`. */
const ACTIONS = listAwsActions()
  .filter((a) => (a.prefix === "s3" || a.prefix === "kms") && !isAlwaysAllowedAction(a.action))
  .map((a) => ({
    ...a,
    object: a.resourceTypes.includes("object") && !a.resourceTypes.includes("bucket"),
  }));

/** With a policy, owned without one, of unknown owner, a key without a supplied key policy. */
const TARGETS = [
  { resource: "arn:aws:s3:::a", service: "S3", prefix: "s3" },
  { resource: "arn:aws:s3:::d", service: "S3", prefix: "s3" },
  { resource: "arn:aws:s3:::c", service: "S3", prefix: "s3" },
  { resource: KEY, service: "KMS", prefix: "kms" },
  { resource: `arn:aws:kms:us-east-1:${ACCOUNT}:key/none`, service: "KMS", prefix: "kms" },
] as const;

describe("the holders of a capability (endpoint 12) agree with authorize", () => {
  it("on random accounts, for resources with and without a policy", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const model = buildModel(s);
        for (const { resource, service, prefix } of TARGETS) {
          const { record } = resolveTarget(model, resource, service);
          const holders = capabilityHolders(model, {}, record);
          for (const principal of [USER, USER2, ROLE]) {
            const expected = new Map<string, boolean>();
            for (const a of ACTIONS) {
              if (a.prefix !== prefix) continue;
              const literal = a.object ? `${resource}/*` : resource;
              const { decision } = authorize(model, {
                principal,
                action: a.action,
                resource: literal,
              });
              if (decision !== "allowed" && decision !== "conditional") continue;
              for (const cap of a.capabilities)
                expected.set(cap, (expected.get(cap) ?? true) && decision === "conditional");
            }
            const got = new Map<string, boolean>();
            for (const [cap, byPrincipal] of holders) {
              const conditional = byPrincipal.get(principal);
              if (conditional !== undefined) got.set(cap, conditional);
            }
            expect(got, `${principal} on ${resource}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
