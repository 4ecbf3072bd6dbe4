import type { ActionWords } from "./action-words.ts";
import type { AwsAccessLevel } from "./aws-access-level.ts";
import {
  CATEGORY_DATA_NOUNS,
  CATEGORY_STORE_NOUNS,
  CONFIG_CONTEXT,
  CONFIG_WORDS,
  CONTENT_DELETE_VERBS,
  DATA_COPY_NOUNS,
  DATA_HEAD_NOUNS,
  DATA_NOUNS,
  DATA_STORE_NOUNS,
  DATA_TRAILERS,
  NOT_A_STORE_QUALIFIERS,
  STORE_CATEGORIES,
  STORE_CATEGORY_NOUNS,
} from "./aws-vocabulary.ts";
import type { Capability } from "./capability.ts";

/**
 * What the AWS classification rules (aws-rules.ts) read of an action: its facts, the
 * capability lists they answer with, and the predicates on its words they are written in.
 */

export interface AwsActionFacts {
  prefix: string;
  name: string;
  accessLevel: AwsAccessLevel;
  category?: string | undefined;
  words: ActionWords;
}

export interface AwsRule {
  id: string;
  /** The capabilities when the rule applies, otherwise undefined (the next rule is tried). */
  match(facts: AwsActionFacts): readonly Capability[] | undefined;
}

export const ADMIN: readonly Capability[] = ["administer-resource"];
export const CONFIG: readonly Capability[] = ["read-config"];
export const USE: readonly Capability[] = ["use-resource"];
export const READ: readonly Capability[] = ["read-data"];
export const WRITE: readonly Capability[] = ["write-data"];
export const DELETE: readonly Capability[] = ["delete-data"];

export const last = (noun: readonly string[]) => noun[noun.length - 1];
export const has = (noun: readonly string[], ...words: string[]) =>
  words.some((w) => noun.includes(w));

/**
 * Drops a trailing qualifier: `GetParametersByPath` is about parameters, `ReadDataViaQuery` and
 * `ReadDataForReplication` about data.
 */
function headPhrase(noun: readonly string[]): readonly string[] {
  const at = noun.findIndex(
    (w, i) =>
      i > 0 && (w === "By" || w === "Via" || (w === "For" && noun[i + 1] === "Replication")),
  );
  return at > 0 ? noun.slice(0, at) : noun;
}

const RESULT_WORDS = ["Result", "Results"];

/**
 * The results of a query, however the action names them: `GetQueryResults`,
 * `GetQueryResultsStream`, `GenerateQueryResultsSummary`, `GetQueryResultsMonitorTopContributors`.
 */
function isQueryResults(phrase: readonly string[]): boolean {
  const at = phrase.findIndex((w) => RESULT_WORDS.includes(w));
  if (at < 0) return false;
  if (phrase.slice(0, at).some((w) => w === "Query" || w === "Queries")) return true;
  // `…ResultsStream` streams the results; anything else after `Results` names another thing.
  return phrase.slice(at + 1).every((w) => w === "Stream");
}

const NO_WORDS: ReadonlySet<string> = new Set();

/**
 * Does the noun name the content a resource holds, rather than its settings? A data noun counts
 * when only trailers follow it (`ObjectVersion`, not `ObjectAcl`), a head noun when it is last.
 */
export function isDataNoun(noun: readonly string[], category?: string): boolean {
  const phrase = headPhrase(noun);
  const head = last(phrase);
  if (head === undefined) return false;
  if (phrase.some((w) => CONFIG_CONTEXT.has(w))) return false;
  if (isQueryResults(phrase)) return true;
  const extra = (category && CATEGORY_DATA_NOUNS[category]) || NO_WORDS;
  let i = phrase.length - 1;
  while (i >= 0 && !DATA_NOUNS.has(phrase[i] ?? "") && !extra.has(phrase[i] ?? "")) i--;
  if (i >= 0 && phrase.slice(i + 1).every((w) => DATA_TRAILERS.has(w))) return true;
  if (CONFIG_WORDS.has(head)) return false;
  if (DATA_HEAD_NOUNS.has(head)) return true;
  // EBS direct APIs read and write the blocks of a snapshot.
  return head.startsWith("Block") && phrase.includes("Snapshot");
}

export const isData = (f: AwsActionFacts) => isDataNoun(f.words.noun, f.category);

/** Activity data about the account's own identities (credential reports, last-used data). */
export function isUsageReport(noun: readonly string[]): boolean {
  // `GetFindingsReportStatus` is about the report, not its content.
  const head = last(noun);
  if (head !== undefined && CONFIG_WORDS.has(head)) return false;
  // Reports of what identities did or can do (IAM's credential and access reports, a user
  // activity report), not findings, cost, quota or test reports, which describe resources.
  return (
    (has(noun, "Report", "Reports") && has(noun, "Credential", "Access", "Activity")) ||
    (has(noun, "Last") && has(noun, "Used", "Accessed")) ||
    has(noun, "Accessed")
  );
}

/**
 * A data-holding resource: a live resource whose content is data that its data-plane actions read
 * and write, so that deleting it destroys that content (`DeleteTable`, `DeleteDBInstance`,
 * `DeleteLogGroup`, `DeleteStream`). Recognised by the noun's last word:
 * - anywhere: volumes, ledgers, databases, keyspaces, datastores, log groups, log and delivery
 *   streams, file systems, data stores (`DeleteEventDataStore`);
 * - by kind of service: message queues (application integration), repositories of code,
 *   packages and images (developer tools, containers);
 * - in storage, database and analytics services: tables, clusters, indexes, replicas,
 *   collections, datasets, graphs, stores, warehouses, domains, namespaces, streams, caches, and
 *   (databases only) instances.
 * Not data-holding: copies (backups, snapshots: `isDataCopy`), containers that must be emptied
 * before deletion (S3 buckets, vaults), links (`RemoveRoleFromDBCluster`), and resources that
 * forward or reference data kept elsewhere (`NOT_A_STORE_QUALIFIERS`: event and metric streams,
 * configured tables, virtual clusters; trails, whose logs stay in S3).
 */
export function isDataStore(facts: Pick<AwsActionFacts, "category" | "words">): boolean {
  const { noun } = facts.words;
  const head = last(noun);
  // `RemoveRoleFromDBCluster` names a link to the store, not the store.
  if (head === undefined || has(noun, "From", "To", "For")) return false;
  const before = noun[noun.length - 2];
  if (before !== undefined && NOT_A_STORE_QUALIFIERS.has(before)) return false;
  if (DATA_STORE_NOUNS.has(head)) return true;
  if (head === "Group" && before === "Log") return true;
  if (head === "Stream" && (before === "Log" || before === "Delivery")) return true;
  if ((head === "System" && before === "File") || (head === "Store" && before === "Data"))
    return true;
  // A secret holds its value (`secretsmanager:DeleteSecret`; not `DeleteUserPoolClientSecret`).
  if (noun.length === 1 && head === "Secret") return true;
  const category = facts.category;
  if (category === undefined) return false;
  if (CATEGORY_STORE_NOUNS[category]?.has(head)) return true;
  if (!STORE_CATEGORIES.has(category)) return false;
  if (STORE_CATEGORY_NOUNS.has(head)) return true;
  // In database services an "instance" is the database itself, and a replication group the
  // cluster of cache nodes (`elasticache:DeleteReplicationGroup`).
  if (category !== "databases") return false;
  return (
    head === "Instance" || head === "Instances" || (head === "Group" && before === "Replication")
  );
}

/** A backup, snapshot or recovery point: a copy of data. */
export function isDataCopy(noun: readonly string[]): boolean {
  const head = last(noun);
  if (head === undefined) return false;
  return DATA_COPY_NOUNS.has(head) || (head.startsWith("Point") && noun.includes("Recovery"));
}

export const isRead = (f: AwsActionFacts) => f.accessLevel === "Read" || f.accessLevel === "List";
export const verbIn = (f: AwsActionFacts, set: ReadonlySet<string>) => set.has(f.words.verb);
export const isDelete = (f: AwsActionFacts) => CONTENT_DELETE_VERBS.has(f.words.verb);

export const RUN_VERBS = new Set([
  "Execute",
  "Run",
  "Start",
  "Begin",
  "Commit",
  "Rollback",
  "Cancel",
  "Stop",
]);
export const STATEMENT_WORDS = new Set([
  "Statement",
  "Statements",
  "Sql",
  "Transaction",
  "Query",
  "Queries",
]);
const DATABASE_WORDS = ["Db", "DB", "Database", "Cluster", "Workgroup"];
export const DATA_ENGINE_CATEGORIES = new Set(["databases", "analytics"]);

/**
 * A login to a data store: a connect action on a database (`connect`, `DbConnect`,
 * `DbConnectAdmin`, `ConnectKxCluster`), or, in a database or analytics service, temporary
 * database credentials, session credentials, auth tokens and signed connection strings
 * (`GetClusterCredentials`, `GetCredentials`, `GetIdentityCenterAuthToken`,
 * `GetKxConnectionString`).
 */
export function isDataStoreLogin(f: AwsActionFacts): boolean {
  const { verb, noun } = f.words;
  const words = [verb, ...noun];
  const connect = words.indexOf("Connect");
  if (verb === "Connect" && noun.length === 0) return true;
  if (connect > 0 && has(words.slice(0, connect), "Db", "DB", "Database")) return true;
  if (f.category === undefined || !DATA_ENGINE_CATEGORIES.has(f.category)) return false;
  if (verb === "Connect") return has(noun, ...DATABASE_WORDS, "Kx");
  if (verb !== "Get" && verb !== "Generate") return false;
  const head = last(noun);
  if (head === "Credentials") return noun.length === 1 || has(noun, ...DATABASE_WORDS, "Session");
  if (head === "Token") return has(noun, "Auth");
  return head === "String" && noun[noun.length - 2] === "Connection";
}
