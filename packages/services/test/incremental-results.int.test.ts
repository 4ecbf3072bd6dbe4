import type { CollectedAccount } from "@sightline/aws";
import {
  createDb,
  type DbHandle,
  finishExecution,
  getPartnerCustomer,
  insertExecution,
  listAccessChanges,
  listFindings,
  principalResultPages,
  resourceResultPages,
} from "@sightline/db";
import {
  createPartnerCustomer,
  createTestDatabase,
  type TestDatabase,
} from "@sightline/db/testing";
import type { AccountSnapshot } from "@sightline/engine";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT, generateAccount } from "../../engine/bench/generate-account.ts";
import { changed, MUTATIONS, TINY } from "../../engine/bench/random-changes.ts";
import { recordAnalysisChanges } from "../src/changes/analysis-changes.ts";
import { recordIncrementalChanges } from "../src/changes/incremental-results.ts";
import { StepBases } from "../src/events/step-bases.ts";
import { readReachDictionary } from "../src/results/reach-dictionary.ts";
import { decodePrincipal, decodeResource } from "../src/results/result-records.ts";
import { analyseForResults, reanalyseSnapshot } from "../src/results/results-input.ts";
import { ResultsRecorder } from "../src/results/results-recorder.ts";

/**
 * An event step stores what a change reaches anew and copies the rest of the previous results.
 * On random accounts and random changes, its results equal a whole analysis's of the changed
 * account: the decoded principals with their access, the resources with who reaches them, the
 * changes against the first analysis and the findings.
 */

let database: TestDatabase;
let handle: DbHandle;
beforeAll(async () => {
  database = await createTestDatabase(process.env.DATABASE_URL);
  handle = createDb(database.url, { maxConnections: 4 });
});
afterAll(async () => {
  await handle?.close();
  await database?.dispose();
});

const collection = (snapshot: AccountSnapshot): CollectedAccount => ({
  snapshot,
  metadata: {
    accountId: ACCOUNT,
    partition: "aws",
    callerArn: `arn:aws:sts::${ACCOUNT}:assumed-role/auditor/sightline`,
    regions: ["us-east-1"],
    startedAt: "2026-11-29T00:00:00Z",
    finishedAt: "2026-11-29T00:00:01Z",
    roleLastUsed: {},
    // Every other bucket confidential: a change of who reaches it is compared entry by entry.
    buckets: Object.fromEntries(
      (snapshot.buckets ?? []).map((name, i) => [
        `arn:aws:s3:::${name}`,
        { name, tags: { Confidentiality: i % 2 === 0 ? "Confidential" : "internal" } },
      ]),
    ),
    keys: {},
  },
  warnings: [],
});

async function newCustomer(): Promise<string> {
  const key = await createPartnerCustomer(handle.db);
  return (await getPartnerCustomer(handle.db, key))?.customerId as string;
}

let sequence = 0;
async function execution(customerId: string, analysisTime: Date) {
  const executionId = `ondemand-${customerId}-${ACCOUNT}-20261129_${String(sequence++).padStart(4, "0")}`;
  const row = {
    executionId,
    kind: "ondemand" as const,
    customerId,
    accountId: ACCOUNT,
    provider: "aws",
    authMethod: "config" as const,
  };
  await insertExecution(handle.db, { execution: row }, async () => {});
  return { ...row, analysisTime };
}

async function whole(customerId: string, snapshot: AccountSnapshot, time: Date) {
  const key = await execution(customerId, time);
  await recordAnalysisChanges({
    db: handle.db,
    execution: key,
    results: new ResultsRecorder(analyseForResults(collection(snapshot))),
    reanalyse: reanalyseSnapshot,
    dir: "/nonexistent-reports-not-written",
    formats: [],
  });
  await finishExecution(handle.db, key.executionId, {
    status: "succeeded",
    reportKeys: [],
    warnings: [],
  });
  return key;
}

/** What a reader of the store sees of an execution, without its IDs. */
async function stored(key: { executionId: string; customerId: string }) {
  const principals: unknown[] = [];
  for await (const page of principalResultPages(handle.db, key.executionId))
    for (const p of page) principals.push(decodePrincipal(p));
  const dictionary = await readReachDictionary(handle.db, key.executionId);
  if (!dictionary) throw new Error(`${key.executionId} has no reach dictionary`);
  const resources: unknown[] = [];
  for await (const page of resourceResultPages(handle.db, key.executionId))
    for (const r of page)
      resources.push({ ...(await decodeResource(r, async () => dictionary)), holders: r.holders });
  const changes = (
    await listAccessChanges(handle.db, {
      customerId: key.customerId,
      accountId: ACCOUNT,
      limit: 10_000,
    })
  ).changes
    .filter((c) => c.executionId === key.executionId)
    .map((c) => {
      const {
        changeId: _,
        executionId: _e,
        previousExecutionId: _p,
        ...rest
      } = c.change as unknown as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .sort();
  const findings = (
    await listFindings(handle.db, {
      customerId: key.customerId,
      accountId: ACCOUNT,
      status: "active",
      limit: 10_000,
    })
  ).findings
    .map((f) => JSON.stringify([f.kind, f.subject, f.severity, f.detail]))
    .sort();
  return { principals, resources, changes, findings };
}

const mutationArb = fc.record({
  kind: fc.constantFrom(...Object.keys(MUTATIONS)),
  n: fc.array(fc.nat(1000), { minLength: 6, maxLength: 6 }),
});

/**
 * One random account changed by `mutations`: analysed whole twice for one customer, analysed
 * whole then stepped for another; the step's results (with each resource's holders), changes and
 * findings must equal the second whole analysis's. Undefined when the step went whole, else
 * what it remade.
 */
async function stepEqualsWhole(
  seed: number,
  mutations: readonly { kind: string; n: readonly number[] }[],
) {
  const before = generateAccount(TINY, seed);
  const after = changed(before, mutations);
  const [t0, t1] = [new Date("2026-11-29T07:00:00Z"), new Date("2026-11-29T07:01:00Z")];
  const [a, b] = [await newCustomer(), await newCustomer()];
  await whole(a, before, t0);
  const wholeAfter = await whole(a, after, t1);
  const first = await whole(b, before, t0);
  const step = await execution(b, t1);
  const outcome = await recordIncrementalChanges({
    db: handle.db,
    execution: step,
    previousExecutionId: first.executionId,
    before: collection(before),
    after: collection(after),
    fenced: (write) => write(handle.db),
  });
  if (outcome.kind === "whole") return undefined;
  await finishExecution(handle.db, step.executionId, {
    status: "succeeded",
    reportKeys: [],
    warnings: [],
  });
  const [expected, actual] = [await stored(wholeAfter), await stored(step)];
  expect(actual.principals).toEqual(expected.principals);
  expect(actual.resources).toEqual(expected.resources);
  expect(actual.changes).toEqual(expected.changes);
  expect(actual.findings).toEqual(expected.findings);
  return outcome.remade;
}

type Mutation = { kind: string; n: readonly number[] };

/**
 * `batches` applied one after the other: each step made from the one before (appending to entries
 * appended already, patching them, or remaking them), each set beside a whole analysis of the
 * account as it is then. A step that goes whole is followed by a whole analysis the next steps
 * start from. Before a batch, a change no event named (`unseen`) may be found by a whole analysis
 * (the daily one) of both customers.
 * The steps start as a worker's do (`StepBases`): from the last step's account and model while
 * the newest results are still that step's, else from the newest snapshot. Each step patches what
 * it starts from, as an event step does. Returns how many steps stepped, appended, and started
 * from a kept base.
 */
async function chainEqualsWhole(
  seed: number,
  batches: readonly (readonly Mutation[])[],
  unseen: readonly (Mutation | null)[] = [],
): Promise<{ stepped: number; appended: number; kept: number }> {
  let snapshot = generateAccount(TINY, seed);
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 7, minute));
  const [a, b] = [await newCustomer(), await newCustomer()];
  await whole(a, snapshot, at(0));
  let previous = (await whole(b, snapshot, at(0))).executionId;
  const bases = new StepBases(Number.POSITIVE_INFINITY);
  const account = { customerId: b, accountId: ACCOUNT };
  let [stepped, appended, kept] = [0, 0, 0];
  for (const [k, batch] of batches.entries()) {
    const outside = unseen[k];
    if (outside) {
      snapshot = changed(snapshot, [outside]);
      await whole(a, snapshot, at(4 * k + 1));
      previous = (await whole(b, snapshot, at(4 * k + 1))).executionId;
    }
    const expected = await stored(await whole(a, changed(snapshot, batch), at(4 * k + 2)));
    const step = await execution(b, at(4 * k + 2));
    const base = bases.take(account, previous);
    if (base) kept++;
    const before = base?.collected ?? collection(snapshot);
    const after = collection(changed(before.snapshot, batch));
    const outcome = await recordIncrementalChanges({
      db: handle.db,
      execution: step,
      previousExecutionId: previous,
      before,
      ...(base ? { beforeModel: base.model } : {}),
      after,
      fenced: (write) => write(handle.db),
    });
    snapshot = changed(snapshot, batch);
    if (outcome.kind === "whole") {
      await finishExecution(handle.db, step.executionId, {
        status: "failed",
        failure: { code: "INTERNAL", message: outcome.reason },
        warnings: [],
      });
      bases.drop(account);
      previous = (await whole(b, snapshot, at(4 * k + 3))).executionId;
      continue;
    }
    await finishExecution(handle.db, step.executionId, {
      status: "succeeded",
      reportKeys: [],
      warnings: [],
    });
    bases.keep(account, { executionId: step.executionId, collected: after, model: outcome.model });
    const actual = await stored(step);
    expect(actual.principals).toEqual(expected.principals);
    expect(actual.resources).toEqual(expected.resources);
    expect(actual.changes).toEqual(expected.changes);
    expect(actual.findings).toEqual(expected.findings);
    previous = step.executionId;
    stepped++;
    if (outcome.remade.appended) appended++;
  }
  return { stepped, appended, kept };
}

describe("an event step's results", () => {
  it("equal a whole analysis's of the changed account", async () => {
    let stepped = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(10_000),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        async (seed, mutations) => {
          if (await stepEqualsWhole(seed, mutations)) stepped++;
        },
      ),
      {
        numRuns: 25,
        // A user removed and another added, which took its number in the whole analysis's
        // dictionary: the whole comparison once took the equal bytes for the same reach and
        // missed the new user's confidential access, which the step reported (`numberAgreement`).
        examples: [
          [
            1638,
            [
              { kind: "removeUser", n: [0, 0, 0, 0, 0, 0] },
              { kind: "addUser", n: [3, 0, 0, 0, 0, 0] },
            ],
          ],
        ],
      },
    );
    expect(stepped).toBeGreaterThan(15);
  }, 600_000);

  // A user made an administrator (`"Action": "*"` on `"Resource": "*"`) gains entries on most
  // resources, appended where it reached nothing before and patched where it did; a permissions
  // boundary given beside it, or on it, may leave it reaching less than before.
  it("equal a whole analysis's when a user is made an administrator beside other changes", async () => {
    let [stepped, appended] = [0, 0];
    const step = fc.nat(1000).chain((user) => {
      // `statement`'s numbers: the action "*" (7 of 8), the resource "*" (0 of 5), Allow.
      const admin = fc.record({
        kind: fc.constant("userInline"),
        n: fc.tuple(
          fc.nat(100).map((i) => 8 * i + 7),
          fc.nat(100).map((i) => 5 * i),
          fc.nat(100).map((i) => 4 * i + 1),
          fc.nat(1000),
          fc.constant(user),
          fc.nat(1000),
        ),
      });
      const boundary = fc.record({
        kind: fc.constant("boundary"),
        n: fc.tuple(
          fc.nat(100).map((i) => 2 * i),
          fc.nat(1000),
          fc.nat(1000),
          fc.nat(1000),
          fc.constant(user),
          fc.nat(1000),
        ),
      });
      return fc.tuple(admin, fc.array(fc.oneof(mutationArb, boundary), { maxLength: 2 }));
    });
    await fc.assert(
      fc.asyncProperty(fc.nat(10_000), step, fc.boolean(), async (seed, [made, others], first) => {
        const mutations = first ? [made, ...others] : [...others, made];
        const remade = await stepEqualsWhole(seed, mutations);
        if (remade) stepped++;
        if (remade?.appended) appended++;
      }),
      { numRuns: 20 },
    );
    expect(stepped).toBeGreaterThan(10);
    // A new administrator reaches most resources it reached nothing of: appended there.
    expect(appended).toBeGreaterThan(5);
  }, 600_000);

  // Each step starts from the one before as a worker's does (`StepBases`), unless a whole
  // analysis found a change no event named in between (here always before the second step): then
  // from the newest snapshot. The third starts from the second's base when the second stepped.
  it("equal a whole analysis's step after step, each made from the one before", async () => {
    let [stepped, appended, kept] = [0, 0, 0];
    // `statement`'s numbers for an administrator made: the action "*", the resource "*", Allow.
    const admin = fc
      .nat(1000)
      .map((user) => ({ kind: "userInline", n: [7, 0, 1, 0, user, 0] as number[] }));
    const batch = fc.array(fc.oneof(mutationArb, admin), { minLength: 1, maxLength: 2 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(10_000),
        fc.array(batch, { minLength: 3, maxLength: 3 }),
        mutationArb,
        async (seed, batches, unseen) => {
          const chain = await chainEqualsWhole(seed, batches, [null, unseen, null]);
          stepped += chain.stepped;
          appended += chain.appended;
          kept += chain.kept;
        },
      ),
      { numRuns: 8 },
    );
    expect(stepped).toBeGreaterThan(12);
    expect(appended).toBeGreaterThan(4);
    // Third steps started from the second's base (at most one a case: more than 1 of 8).
    expect(kept).toBeGreaterThan(1);
  }, 600_000);
});
