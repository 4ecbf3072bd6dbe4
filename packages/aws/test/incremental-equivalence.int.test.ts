import { type FakeAccountModel, type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { ACCOUNT_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patchCollection } from "../src/incremental/patch-collection.ts";
import { readEventTargets } from "../src/incremental/read-event-targets.ts";
import { assumeFixtureRole, collectWithFake } from "./fixtures/collect-with-fake.ts";
import { comparable } from "./fixtures/comparable.ts";
import { change } from "./fixtures/random-changes.ts";
import { targetsOfEvents } from "./fixtures/targets-of-events.ts";

const allow = (action: string) => ({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: action, Resource: "*" }],
});

/**
 * The small account, with a second customer policy and an AWS managed policy nothing uses yet.
 * Every policy has both counts, as IAM gives them (a patch cannot tell a count set and unset
 * within one batch from one never set).
 */
const model: FakeAccountModel = {
  ...smallAccount,
  authorizationDetails: {
    ...smallAccount.authorizationDetails,
    Policies: [
      ...(smallAccount.authorizationDetails?.Policies ?? []).map((policy) => ({
        PermissionsBoundaryUsageCount: 0,
        ...policy,
      })),
      {
        PolicyName: "extra",
        PolicyId: "ANPAEXTRA",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:policy/extra`,
        Path: "/",
        DefaultVersionId: "v1",
        AttachmentCount: 0,
        PermissionsBoundaryUsageCount: 0,
        IsAttachable: true,
        PolicyVersionList: [{ Document: allow("sqs:*"), VersionId: "v1", IsDefaultVersion: true }],
      },
    ],
  },
  policiesOutsideGaad: [
    {
      PolicyName: "SecurityAudit",
      Arn: "arn:aws:iam::aws:policy/SecurityAudit",
      Path: "/",
      DefaultVersionId: "v1",
      AttachmentCount: 0,
      PermissionsBoundaryUsageCount: 0,
      PolicyVersionList: [{ Document: allow("iam:Get*"), VersionId: "v1", IsDefaultVersion: true }],
    },
  ],
};

/** AWS's own refusals (`NoSuchEntity`, `DeleteConflict`, …): the change did not happen. */
const refusedByAws = (error: unknown) =>
  error instanceof Error && "code" in error && "status" in error;

describe("incremental collection equals a full collection", () => {
  it("patching a full collection with the reads its events name gives the next full collection", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 8 }), async (changes) => {
        const fake: FakeAws = await startFakeAws(model);
        try {
          const credentials = await assumeFixtureRole(fake);
          const before = await collectWithFake(fake, { credentials });
          const keys = new Map<string, string[]>();
          for (const { apply } of changes) {
            try {
              apply(fake, keys);
            } catch (error) {
              if (!refusedByAws(error)) throw error;
            }
          }
          const reads = await readEventTargets({
            credentials,
            accountId: ACCOUNT_ID,
            partition: "aws",
            clientOptions: fake.clientOptions,
            targets: targetsOfEvents(fake.control.cloudTrailEvents()),
            previous: before.snapshot,
          });
          const after = await collectWithFake(fake, { credentials });
          const patched = patchCollection(before, reads);
          expect(comparable(patched)).toEqual(comparable(after));
          // A worker keeps what it patched or collected for the account's next step
          // (services' StepBases) instead of reading the stored JSON back: they must be alike,
          // but for members whose value is undefined (credential report rows have them), which
          // JSON drops and readers take for absent. No Date, Map or class instance may hide in it.
          for (const kept of [patched, after])
            expect(JSON.parse(JSON.stringify(kept))).toEqual(kept);
        } finally {
          await fake.close();
        }
      }),
      { numRuns: 25, seed: Number(process.env.SIGHTLINE_PROPERTY_SEED ?? 20261129) },
    );
  }, 300_000);
});
