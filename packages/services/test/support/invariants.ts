/**
 * The five invariants of the fault suite (issue 34), checked after a fault has cleared against
 * the database, the inbox (the fake's S3 or the local folder), the alert receivers and the
 * workers' work directory. Each check answers the violations it found, in words, so that a test
 * asserts none and the soak bench counts them.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { FakeAws } from "@sightline/aws-fake";
import { type Executor, rawQuery } from "@sightline/db";
import { type AccessChange, type ChangeKind, changeMatchesKind } from "@sightline/domain";
import { Manifest } from "@sightline/reports";

/** Where the delivered objects are. */
export type InboxView =
  | { kind: "s3"; fake: FakeAws; bucket: string }
  | { kind: "folder"; dir: string };

/** What a webhook receiver saw: each request's body (an `AlertPayload`'s JSON). */
export interface ReceivedAlerts {
  readonly received: readonly { body: string }[];
}

export interface InvariantScope {
  db: Executor;
  /** The executions the fault touched. */
  executionIds: readonly string[];
  inbox: InboxView;
  /** The workers' work directory (`AnalysisSettings.workDir`). */
  workDir: string;
  /** The alert receivers of the executions' owners. */
  receivers?: readonly ReceivedAlerts[];
  /** Invariant 1's bound: every execution has ended this long after the fault cleared. */
  endWithinSeconds: number;
}

export interface InvariantReport {
  /** Each broken invariant, in words; empty when all hold. */
  violations: string[];
  /** How long after the call the last execution ended (the recovery time). */
  endedAfterMs: number;
}

interface ExecutionState {
  executionId: string;
  status: string;
  /** `event`: an event step, which delivers no reports but applies its events. */
  kind: string;
  customerId: string;
  accountId: string;
  partnerId: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  reportKeys: string[];
}

const MANIFEST = /\/manifest\.([^/]+)\.json$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A connection the fault cut fails its next query: the checker asks again. */
async function rows<T>(db: Executor, text: string, values: unknown[] = []): Promise<T[]> {
  for (let tries = 1; ; tries++) {
    try {
      return [...(await db.execute(rawQuery(text, values)))] as T[];
    } catch (error) {
      if (tries >= 5) throw error;
      await sleep(200 * tries);
    }
  }
}

/** Invariant 1: waits (up to the bound) for every execution to end; says which did not. */
export async function awaitEnd(
  db: Executor,
  executionIds: readonly string[],
  seconds: number,
): Promise<{ executions: ExecutionState[]; violations: string[]; endedAfterMs: number }> {
  const started = Date.now();
  for (;;) {
    const executions = await rows<ExecutionState>(
      db,
      `select execution_id as "executionId", status, kind, customer_id as "customerId",
        account_id as "accountId", partner_id as "partnerId", failure_code as "failureCode",
        failure_message as "failureMessage", report_keys as "reportKeys"
       from executions where execution_id = any(string_to_array($1, ','))`,
      [executionIds.join(",")],
    );
    const open = executions.filter((e) => e.status !== "succeeded" && e.status !== "failed");
    const missing = executionIds.filter((id) => !executions.some((e) => e.executionId === id));
    if ((open.length === 0 && missing.length === 0) || Date.now() - started > seconds * 1000) {
      const violations = [
        ...missing.map((id) => `1: execution ${id} does not exist`),
        ...open.map((e) => `1: execution ${e.executionId} still ${e.status} after ${seconds} s`),
        ...executions
          .filter((e) => e.status === "failed" && !(e.failureCode && e.failureMessage))
          .map((e) => `1: execution ${e.executionId} failed without a code and a message`),
      ];
      return { executions, violations, endedAfterMs: Date.now() - started };
    }
    await sleep(100);
  }
}

/** The inbox's objects (key → size and SHA-256), read lazily per key. */
function inboxReader(inbox: InboxView) {
  return {
    async keys(prefix: string): Promise<string[]> {
      if (inbox.kind === "s3")
        return [...inbox.fake.objects.keys()]
          .filter((k) => k.startsWith(`${inbox.bucket}/${prefix}`))
          .map((k) => k.slice(inbox.bucket.length + 1));
      const root = path.join(inbox.dir, prefix);
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(inbox.dir, path.join(e.parentPath, e.name)));
    },
    async object(key: string): Promise<{ bytes: Buffer } | undefined> {
      if (inbox.kind === "s3") {
        const stored = inbox.fake.objects.get(`${inbox.bucket}/${key}`);
        return stored && { bytes: stored.body };
      }
      return readFile(path.join(inbox.dir, key)).then(
        (bytes) => ({ bytes }),
        () => undefined,
      );
    },
  };
}

/**
 * Invariants 2, 3 and 4 on the inbox: each manifest lists only objects present with the listed
 * size and digest (so none vouches for a mixed `latest`), every object under a dated stamp is
 * listed by that stamp's manifest with its digest, no temporary file of a write and no incomplete
 * multipart upload is left over.
 */
async function checkInbox(
  inbox: InboxView,
  executions: readonly ExecutionState[],
): Promise<string[]> {
  const reader = inboxReader(inbox);
  const violations: string[] = [];
  const prefixes = new Set(executions.map((e) => `customers/${e.customerId}/`));
  for (const prefix of prefixes) {
    const keys = await reader.keys(prefix);
    for (const key of keys.filter((k) => k.includes(".partial-")))
      violations.push(`4: a temporary file of a write is left in the inbox: ${key}`);
    if (inbox.kind === "s3")
      for (const upload of inbox.fake.uploads.values())
        if (upload.bucket === inbox.bucket && upload.key.startsWith(prefix))
          violations.push(`4: an incomplete multipart upload is left in the inbox: ${upload.key}`);
    for (const manifestKey of keys.filter((k) => MANIFEST.test(k))) {
      const found = await reader.object(manifestKey);
      const parsed = Manifest.safeParse(JSON.parse(found?.bytes.toString("utf8") ?? "null"));
      if (!parsed.success) {
        violations.push(`2: manifest ${manifestKey} is not a manifest`);
        continue;
      }
      const listed = new Map(parsed.data.objects.map((o) => [o.key, o]));
      for (const object of parsed.data.objects) {
        const present = await reader.object(object.key);
        if (!present) violations.push(`2: ${manifestKey} lists ${object.key}, which is missing`);
        else if (present.bytes.length !== object.bytes || sha256(present.bytes) !== object.sha256)
          violations.push(`3: ${manifestKey} lists ${object.key} with another digest than it has`);
      }
      const stamp = MANIFEST.exec(manifestKey)?.[1] ?? "";
      if (stamp === "latest") continue;
      const account = manifestKey.slice(0, manifestKey.indexOf("/sightline/"));
      for (const key of keys) {
        const dated = key.startsWith(`${account}/`) && key.includes(`.${stamp}.`);
        if (dated && key !== manifestKey && !listed.has(key))
          violations.push(`3: ${key} is under stamp ${stamp} but its manifest does not list it`);
      }
    }
  }
  return violations;
}

/**
 * Invariant 2 on the store: a succeeded execution has its manifest, results and alerts; an
 * event step (no reports) has applied every event it took.
 */
async function checkSucceeded(db: Executor, execution: ExecutionState): Promise<string[]> {
  const violations: string[] = [];
  const id = execution.executionId;
  if (execution.kind === "event") {
    const [taken] = await rows<{ pending: number; applied: number }>(
      db,
      `select count(*) filter (where status = 'pending')::int as pending,
         count(*) filter (where status = 'applied')::int as applied
       from account_events where execution_id = $1`,
      [id],
    );
    if (Number(taken?.pending) > 0)
      violations.push(`2: event step ${id} succeeded with ${taken?.pending} event(s) unapplied`);
    if (Number(taken?.applied) === 0)
      violations.push(`2: event step ${id} succeeded without applying an event`);
  } else if (!execution.reportKeys.some((key) => MANIFEST.test(key)))
    violations.push(`2: execution ${id} succeeded without a manifest`);
  const [result] = await rows<{
    principals: number;
    resources: number;
    stored: number;
    storedResources: number;
    dictionary: boolean;
    compared: boolean;
  }>(
    db,
    `select principals, resources, reach_dictionary is not null as dictionary,
       changes is not null as compared,
       (select count(*)::int from analysis_principals p where p.execution_id = r.execution_id) as stored,
       (select count(*)::int from analysis_resources s where s.execution_id = r.execution_id) as "storedResources"
     from analysis_results r where execution_id = $1`,
    [id],
  );
  if (!result) violations.push(`2: execution ${id} succeeded without stored results`);
  else if (
    result.principals !== result.stored ||
    result.resources !== result.storedResources ||
    !result.dictionary ||
    !result.compared
  )
    violations.push(`3: execution ${id}'s results are stored partly or more than once`);
  const destinations = await rows<{ destinationId: string; alertOn: ChangeKind[] }>(
    db,
    `select destination_id as "destinationId", alert_on as "alertOn" from alert_destinations
     where ${execution.partnerId ? "partner_id = $1" : "customer_id = $1"}`,
    [execution.partnerId ?? execution.customerId],
  );
  if (destinations.length === 0) return violations;
  const changes = await rows<{ change: AccessChange }>(
    db,
    "select change from access_changes where execution_id = $1",
    [id],
  );
  for (const { destinationId, alertOn } of destinations) {
    const matching = changes
      .map((c) => c.change)
      .filter((change) => alertOn.some((kind) => changeMatchesKind(change, kind)));
    if (matching.length === 0) continue;
    const alerted = await rows<{ changeId: string }>(
      db,
      `select change_id as "changeId" from alert_changes
       where destination_id = $1 and change_id = any(string_to_array($2, ','))`,
      [destinationId, matching.map((c) => c.changeId).join(",")],
    );
    if (alerted.length < matching.length)
      violations.push(
        `2: execution ${id} succeeded but ${matching.length - alerted.length} change(s) were never enqueued to destination ${destinationId}`,
      );
  }
  return violations;
}

/** Invariant 3 on the alerts: a change reaches a receiver under one alert ID only. */
function checkReceived(receivers: readonly ReceivedAlerts[]): string[] {
  const alertsOfChange = new Map<string, Set<string>>();
  for (const receiver of receivers)
    for (const { body } of receiver.received) {
      const payload = JSON.parse(body) as { alertId: string; changes: AccessChange[] };
      for (const change of payload.changes) {
        const ids = alertsOfChange.get(change.changeId) ?? new Set<string>();
        alertsOfChange.set(change.changeId, ids.add(payload.alertId));
      }
    }
  return [...alertsOfChange]
    .filter(([, ids]) => ids.size > 1)
    .map(([changeId, ids]) => `3: change ${changeId} reached a receiver as ${ids.size} alerts`);
}

/** Invariant 3 in the store: one recorded delivery per (destination, change). */
async function checkAlertRecords(db: Executor, executionIds: readonly string[]) {
  const doubled = await rows<{ destinationId: string; changeId: string }>(
    db,
    `select c.destination_id as "destinationId", c.change_id as "changeId"
     from alert_changes c join alert_deliveries d on d.alert_id = c.alert_id
     where d.execution_id = any(string_to_array($1, ','))
     group by c.destination_id, c.change_id having count(*) > 1`,
    [executionIds.join(",")],
  );
  return doubled.map(
    (d) => `3: change ${d.changeId} recorded twice for destination ${d.destinationId}`,
  );
}

/**
 * Invariant 4: an ended execution leaves no work files and no own credential. Its attempt
 * removes its files just after recording the end: they may take a moment (10 s at most).
 */
async function checkLeftovers(
  db: Executor,
  workDir: string,
  executions: readonly ExecutionState[],
): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const violations = await leftovers(db, workDir, executions);
    if (violations.length === 0 || Date.now() > deadline) return violations;
    await sleep(200);
  }
}

async function leftovers(
  db: Executor,
  workDir: string,
  executions: readonly ExecutionState[],
): Promise<string[]> {
  const violations: string[] = [];
  const ended = executions.filter((e) => e.status === "succeeded" || e.status === "failed");
  const entries = new Set(await readdir(workDir).catch(() => [] as string[]));
  for (const { executionId } of ended)
    if (entries.has(executionId))
      violations.push(`4: the work files of ended execution ${executionId} remain`);
  const credentials = await rows<{ executionId: string }>(
    db,
    `select execution_id as "executionId" from execution_credentials where execution_id = any(string_to_array($1, ','))`,
    [ended.map((e) => e.executionId).join(",")],
  );
  for (const { executionId } of credentials)
    violations.push(`4: ended execution ${executionId} still has its own credential`);
  return violations;
}

/**
 * Checks invariants 1–4 for the executions a fault touched; waits for them to end first, up to
 * the stated bound. Invariant 5 (the API answering) needs the API: apps/api's
 * `test/api-answers.ts` checks it, after the database faults (`faults-api-answers.int.test.ts`).
 */
export async function checkInvariants(scope: InvariantScope): Promise<InvariantReport> {
  const ended = await awaitEnd(scope.db, scope.executionIds, scope.endWithinSeconds);
  const violations = [...ended.violations];
  for (const execution of ended.executions)
    if (execution.status === "succeeded")
      violations.push(...(await checkSucceeded(scope.db, execution)));
  violations.push(...(await checkInbox(scope.inbox, ended.executions)));
  violations.push(...(await checkAlertRecords(scope.db, scope.executionIds)));
  violations.push(...checkReceived(scope.receivers ?? []));
  violations.push(...(await checkLeftovers(scope.db, scope.workDir, ended.executions)));
  return { violations, endedAfterMs: ended.endedAfterMs };
}
