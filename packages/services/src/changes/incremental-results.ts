import type { CollectedAccount } from "@sightline/aws";
import {
  appendResourceReach,
  beginAnalysisResult,
  copyAnalysisRows,
  type Executor,
  finishSteppedResult,
  insertPrincipalResults,
  insertResourceResults,
  previousAnalysisResult,
  principalResultsOf,
  recordComparison,
  recordFindings,
  resourceHeadsOf,
  resourceResultsOf,
} from "@sightline/db";
import {
  type AccessChange,
  type ChangeCause,
  type CollectionMetadata,
  DEFAULT_REVIEW_SETTINGS,
  type ReviewSettings,
} from "@sightline/domain";
import {
  type AccountModel,
  analyzeAccount,
  changeScope,
  createAccountModel,
  principalReach,
  reachPrefixes,
} from "@sightline/engine";
import {
  FindingCollector,
  PRINCIPAL_FINDING_KINDS,
  RESOURCE_FINDING_KINDS,
} from "../findings/findings.ts";
import {
  appendedItem,
  appendReach,
  patchedItem,
  patchReach,
  principalNumbers,
  reachFingerprints,
} from "../results/incremental-reach.ts";
import {
  type DictionaryAdded,
  readReachDictionary,
  readReachDictionaryHead,
} from "../results/reach-dictionary.ts";
import { AppendedNumbering, type ReachDictionary } from "../results/reach-encoding.ts";
import { PrincipalRecords, ResourceRecords } from "../results/record-text.ts";
import {
  compareCodePoints,
  currentResultsVersion,
  storedPrincipal,
  storedResource,
} from "../results/result-records.ts";
import { awsResultsInput } from "../results/results-input.ts";
import { type AnalysisChanges, ChangeWriter, type FencedWrite } from "./analysis-changes.ts";
import { changeCauses } from "./change-cause.ts";
import { type ComparisonContext, comparePrincipals, compareResources } from "./compare-results.ts";

const BATCH = 200;

/** What an event step's results were made from, and what it remade. */
export type IncrementalOutcome =
  | {
      kind: "stepped";
      changes: AnalysisChanges;
      /**
       * Principals and resources remade whole; resources whose reach was patched, and those
       * the changed principals' entries were appended to (`appendReach`).
       */
      remade: { principals: number; resources: number; patched: number; appended: number };
      /** The engine's model of `after` (the next step's `beforeModel`). */
      model: AccountModel;
    }
  /** The step could not keep the previous results: the caller analyses the account whole. */
  | { kind: "whole"; reason: string };

interface ExecutionKey {
  executionId: string;
  customerId: string;
  accountId: string;
  provider: string;
  analysisTime: Date;
}

const json = (value: unknown) => JSON.stringify(value ?? null);

/** The keys of two records whose entries differ (added, removed or changed). */
function changedKeys(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => json(before[k]) !== json(after[k]));
}

/** Principals and resources whose collected details (last use, credentials, tags) changed. */
function metadataChanges(before: CollectionMetadata, after: CollectionMetadata) {
  const byArn = (m: CollectionMetadata) =>
    Object.fromEntries((m.credentialReport?.rows ?? []).map((r) => [r.arn, r]));
  return {
    principals: [
      ...changedKeys(before.roleLastUsed, after.roleLastUsed),
      ...changedKeys(byArn(before), byArn(after)),
    ],
    resources: [
      ...changedKeys(before.buckets, after.buckets),
      ...changedKeys(before.keys, after.keys),
    ],
  };
}

/**
 * The changed principals' reach on every other resource, before and after: `is`, their rows now
 * on the resources where those differ (kept in memory, to be patched or appended), `had`, the
 * resources they reached before, and `differ`, the resources where their reach differs. Only on
 * the services their changed statements name (`reachPrefixes`): elsewhere they are alike.
 */
function changedReach(
  models: readonly [AccountModel, AccountModel],
  scope: { principals: ReadonlySet<string>; resources: ReadonlySet<string> },
  accounts: string[],
) {
  const prefixes = reachPrefixes(models[0], models[1], scope.principals);
  const reachOptions = { accounts, ...(prefixes && { prefixes }) };
  const was = reachFingerprints(
    principalReach(models[0], scope.principals, scope.resources, reachOptions),
  ).fingerprints;
  const is = reachFingerprints(
    principalReach(models[1], scope.principals, scope.resources, reachOptions),
    (arn, fingerprint) => was.get(arn) !== fingerprint,
  );
  const differ = new Set(is.kept.keys());
  for (const arn of was.keys()) if (!is.fingerprints.has(arn)) differ.add(arn);
  return { is, had: new Set(was.keys()), differ };
}

async function* listed<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/**
 * An event step's results: the newest results (of the snapshot the step patched) with what the
 * change reaches remade (`changeScope`), the rest copied in Postgres; then compared with them
 * on what was remade only (the copies are equal by construction), findings looked at again for
 * what was remade, the changes stored. Answers `whole` when it cannot: the results are another
 * engine's or another snapshot's, or the change reaches the whole account.
 */
export async function recordIncrementalChanges(input: {
  db: Executor;
  execution: ExecutionKey;
  /** The execution whose results were made from `before`. */
  previousExecutionId: string;
  before: CollectedAccount;
  /** The engine's model of `before`, when the caller has it (`StepBases`); made otherwise. */
  beforeModel?: AccountModel;
  after: CollectedAccount;
  settings?: ReviewSettings;
  fenced: FencedWrite;
  /** Each change's cause (`recordAnalysisChanges`'s). */
  causeOf?: (change: AccessChange) => ChangeCause;
  /** Called once analysed, before the first write of the results (the execution's stage). */
  storing?: () => Promise<unknown>;
}): Promise<IncrementalOutcome> {
  const { db, execution, before, after, fenced } = input;
  const settings = input.settings ?? DEFAULT_REVIEW_SETTINGS;
  const previous = await previousAnalysisResult(db, execution);
  if (!previous || previous.executionId !== input.previousExecutionId)
    return { kind: "whole", reason: "the newest results are not those of the snapshot patched" };
  if (previous.resultsVersion !== currentResultsVersion())
    return { kind: "whole", reason: "the newest results were made by another engine version" };
  const head = await readReachDictionaryHead(db, previous.executionId);
  if (!head) return { kind: "whole", reason: "the newest results have no reach" };
  const models = [
    input.beforeModel ?? createAccountModel(before.snapshot),
    createAccountModel(after.snapshot),
  ] as const;
  const found = changeScope(
    { snapshot: before.snapshot, model: models[0] },
    { snapshot: after.snapshot, model: models[1] },
  );
  if (found.kind === "all") return { kind: "whole", reason: found.reason };
  const details = metadataChanges(before.metadata, after.metadata);
  const principalsInScope = new Set([...found.principals, ...details.principals]);
  // A role is a resource too: its findings are about one ARN, so both are looked at again.
  const rolesInScope = [...principalsInScope].filter((arn) =>
    models.some((m) => m.resourcePolicies.has(arn)),
  );
  const scope = {
    principals: principalsInScope,
    resources: new Set([...found.resources, ...details.resources, ...rolesInScope]),
  };
  const accounts = [execution.accountId];
  const analysis = analyzeAccount(models[1], { accounts, scope });
  const results = awsResultsInput(analysis, after);
  const principalRecords = new PrincipalRecords(analysis, results.principalDetails);
  for (const row of analysis.principalAccessSummaries()) principalRecords.add(row);
  const principals = principalRecords.finish();

  const numbering = new AppendedNumbering(head.counts);
  const extras = [...(results.extraResources ?? [])].filter((r) =>
    scope.resources.has(r.resourceArn),
  );
  const resourceRecords = new ResourceRecords(analysis, results.resourceDetails, extras, numbering);
  for (const row of analysis.resourceAccessSummaries()) resourceRecords.add(row);
  const remade = resourceRecords.finish();

  const { is, had, differ } = changedReach(models, scope, accounts);
  if ([...is.kept.values()].some((rows) => rows.some((r) => !r.inAccount)))
    return {
      kind: "whole",
      reason: "a changed principal reaches a resource from outside its account",
    };
  const principalArns = [...scope.principals];
  const resourceArns = [...new Set([...scope.resources, ...differ])];
  // Where the changed principals reached nothing before, their entries are appended in Postgres
  // (the stored reach is not read); elsewhere theirs are replaced (`patchReach`).
  const appendArns = [...differ].filter((arn) => !had.has(arn) && is.kept.has(arn));
  const appendSet = new Set(appendArns);
  // The previous rows of what is remade or patched: read once, patched, then compared.
  const previousResources = await resourceResultsOf(
    db,
    previous.executionId,
    resourceArns.filter((arn) => !appendSet.has(arn)),
  );
  const dropped = principalNumbers(head, scope.principals);
  const patched = previousResources
    .filter((stored) => differ.has(stored.resourceArn))
    .map((stored) =>
      patchReach(stored, is.kept.get(stored.resourceArn) ?? [], dropped, head, numbering),
    );
  const appended = (await resourceHeadsOf(db, previous.executionId, appendArns)).map((stored) =>
    appendReach(stored, is.kept.get(stored.resourceArn) ?? [], numbering),
  );
  const fresh = numbering.added.dictionary();
  const added: DictionaryAdded = {
    base: head.added?.base ?? head.counts,
    principals: [...(head.added?.principals ?? []), ...fresh.principals],
    capabilities: [...(head.added?.capabilities ?? []), ...fresh.capabilities],
    grants: [...(head.added?.grants ?? []), ...fresh.grants],
  };
  const { executionId } = execution;
  const resources = [...remade, ...patched];
  const comparedOf = new Map(patched.map((p) => [p.stored.resourceArn, p.compared]));
  await input.storing?.();
  await fenced((tx) =>
    beginAnalysisResult(tx, {
      ...execution,
      resultsVersion: currentResultsVersion(),
      previousExecutionId: null,
    }),
  );
  const copied = await fenced((tx) =>
    copyAnalysisRows(tx, previous.executionId, executionId, {
      principals: [...scope.principals],
      resources: [...scope.resources, ...differ],
    }),
  );
  for (let i = 0; i < principals.length; i += BATCH) {
    const batch = principals.slice(i, i + BATCH).map((p) => p.stored);
    await fenced((tx) => insertPrincipalResults(tx, executionId, batch));
  }
  for (let i = 0; i < resources.length; i += 20) {
    const batch = resources.slice(i, i + 20).map((r) => r.stored);
    await fenced((tx) => insertResourceResults(tx, executionId, batch));
  }
  let appendedRows = 0;
  for (let i = 0; i < appended.length; i += 1_000) {
    const batch = appended.slice(i, i + 1_000).map((a) => ({
      resourceArn: a.stored.resourceArn,
      append: a.append,
      holders: a.holders,
    }));
    appendedRows += await fenced((tx) =>
      appendResourceReach(tx, previous.executionId, executionId, batch),
    );
  }
  if (appendedRows !== appended.length)
    throw new Error(`${appended.length - appendedRows} resources to append to were not stored.`);
  await fenced((tx) =>
    finishSteppedResult(tx, executionId, {
      principals: copied.principals + principals.length,
      resources: copied.resources + resources.length + appended.length,
      from: previous.executionId,
      added,
    }),
  );

  // Changes: only what was remade can differ.
  const context: ComparisonContext = {
    previousExecutionId: previous.executionId,
    executionId,
    confidentialValues: new Set(settings.confidentialValues.map((v) => v.toLowerCase())),
  };
  // Read only should a confidential resource's whole reach be compared.
  const dictionaries = new Map<string, Promise<ReachDictionary>>();
  const dictionaryOf = (id: string) => {
    let found = dictionaries.get(id);
    if (!found) {
      found = readReachDictionary(db, id).then((d) => {
        if (!d) throw new Error(`The results of ${id} have no reach dictionary.`);
        return d;
      });
      dictionaries.set(id, found);
    }
    return found;
  };
  // The new version's rows of these ARNs are the ones just inserted (none was copied).
  const inArnOrder = <T>(items: readonly T[], key: (item: T) => string) =>
    [...items].sort((a, b) => compareCodePoints(key(a), key(b)));
  const principalsIn = async (id: string) =>
    listed(
      id === executionId
        ? inArnOrder(
            principals.map((p) => p.stored),
            (p) => p.principalArn,
          ).map(storedPrincipal)
        : (await principalResultsOf(db, id, principalArns)).map(storedPrincipal),
    );
  const resourcesIn = async (id: string) => {
    const side = id === executionId ? "after" : "before";
    const items = [
      ...(id === executionId ? resources.map((r) => r.stored) : previousResources).map((r) => {
        const item = storedResource(r, () => dictionaryOf(id));
        const compared = comparedOf.get(r.resourceArn);
        if (!compared) return item;
        return patchedItem(item, compared, side);
      }),
      ...appended.map((a) => appendedItem(a, side)),
    ];
    return listed(inArnOrder(items, (item) => item.key));
  };
  const streams = [
    comparePrincipals(
      context,
      await principalsIn(previous.executionId),
      await principalsIn(executionId),
    ),
    compareResources(
      context,
      await resourcesIn(previous.executionId),
      await resourcesIn(executionId),
    ),
  ];
  const writer = new ChangeWriter(fenced, execution, input.causeOf ?? changeCauses());
  await writer.start();
  await writer.addAll(streams);

  const collector = new FindingCollector(execution, execution.analysisTime, settings);
  for (const p of principals) collector.addPrincipal(p.head);
  for (const r of [...resources, ...appended]) collector.addResource(r.head, r.summary);
  const { active } = await fenced((tx) =>
    recordFindings(tx, execution, collector.findings(), [
      ...principalArns.flatMap((arn) => PRINCIPAL_FINDING_KINDS.map((k) => `${k} ${arn}`)),
      ...resourceArns.flatMap((arn) => RESOURCE_FINDING_KINDS.map((k) => `${k} ${arn}`)),
    ]),
  );
  await fenced((tx) =>
    recordComparison(tx, executionId, {
      previousExecutionId: previous.executionId,
      changes: writer.count,
      findings: active,
    }),
  );
  return {
    kind: "stepped",
    changes: {
      reports: [],
      changes: writer.alertChanges,
      counts: { changes: writer.count, findings: active, baseline: false },
      warnings: [],
    },
    remade: {
      principals: principals.length,
      resources: remade.length,
      patched: patched.length,
      appended: appended.length,
    },
    model: models[1],
  };
}
