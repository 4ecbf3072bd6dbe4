import type { ActionWords } from "./action-words.ts";
import type { AwsAccessLevel } from "./aws-access-level.ts";
import {
  CATEGORY_DATA_NOUNS,
  CATEGORY_STORE_NOUNS,
  CONFIG_CONTEXT,
  CONFIG_WORDS,
  CONTENT_DELETE_VERBS,
  CONTENT_WRITE_VERBS,
  DATA_COPY_NOUNS,
  DATA_HEAD_NOUNS,
  DATA_NOUNS,
  DATA_READ_VERBS,
  DATA_STORE_NOUNS,
  DATA_TRAILERS,
  DATA_WRITE_VERBS,
  NOT_A_STORE_QUALIFIERS,
  READ_VERBS,
  STORE_CATEGORIES,
  STORE_CATEGORY_NOUNS,
  USE_VERBS,
} from "./aws-vocabulary.ts";
import type { Capability } from "./capability.ts";

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

const ADMIN: readonly Capability[] = ["administer-resource"];
const CONFIG: readonly Capability[] = ["read-config"];
const USE: readonly Capability[] = ["use-resource"];
const READ: readonly Capability[] = ["read-data"];
const WRITE: readonly Capability[] = ["write-data"];
const DELETE: readonly Capability[] = ["delete-data"];

const last = (noun: readonly string[]) => noun[noun.length - 1];
const has = (noun: readonly string[], ...words: string[]) => words.some((w) => noun.includes(w));

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

const isData = (f: AwsActionFacts) => isDataNoun(f.words.noun, f.category);

/** Activity data about the account's own identities (credential reports, last-used data). */
function isUsageReport(noun: readonly string[]): boolean {
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
function isDataCopy(noun: readonly string[]): boolean {
  const head = last(noun);
  if (head === undefined) return false;
  return DATA_COPY_NOUNS.has(head) || (head.startsWith("Point") && noun.includes("Recovery"));
}

const isRead = (f: AwsActionFacts) => f.accessLevel === "Read" || f.accessLevel === "List";
const verbIn = (f: AwsActionFacts, set: ReadonlySet<string>) => set.has(f.words.verb);
const isDelete = (f: AwsActionFacts) => CONTENT_DELETE_VERBS.has(f.words.verb);

const RUN_VERBS = new Set([
  "Execute",
  "Run",
  "Start",
  "Begin",
  "Commit",
  "Rollback",
  "Cancel",
  "Stop",
]);
const STATEMENT_WORDS = new Set([
  "Statement",
  "Statements",
  "Sql",
  "Transaction",
  "Query",
  "Queries",
]);
const DATABASE_WORDS = ["Db", "DB", "Database", "Cluster", "Workgroup"];
const DATA_ENGINE_CATEGORIES = new Set(["databases", "analytics"]);

/**
 * A login to a data store: a connect action on a database (`connect`, `DbConnect`,
 * `DbConnectAdmin`, `ConnectKxCluster`), or, in a database or analytics service, temporary
 * database credentials, session credentials, auth tokens and signed connection strings
 * (`GetClusterCredentials`, `GetCredentials`, `GetIdentityCenterAuthToken`,
 * `GetKxConnectionString`).
 */
function isDataStoreLogin(f: AwsActionFacts): boolean {
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

/** Ordered: the first rule that returns capabilities decides. */
export const AWS_RULES: readonly AwsRule[] = [
  {
    // Handing a role or resource to a service delegates its power (iam:PassRole).
    id: "pass-to-service",
    // A pass that AWS rates Read hands over a reference for the service to use (a connection, a
    // Clean Rooms membership) without granting more: use-resource.
    match: (f) => (f.words.verb === "Pass" ? (isRead(f) ? USE : ADMIN) : undefined),
  },
  {
    // Credentials that log a principal into a data store, whatever the action's name or suffix
    // (`rds-db:connect`, `dsql:DbConnect`, `redshift:GetClusterCredentials[WithIAM]`,
    // `redshift-serverless:GetCredentials`): entering the store, as k9's rds-db:connect.
    id: "data-store-login",
    match: (f) => (isDataStoreLogin(f) ? USE : undefined),
  },
  {
    // HTTP requests to a search domain's data plane (`es:ESHttpGet`, `es:ESHttpPut`): the method
    // says what happens to the documents. (`apigateway:GET` is API Gateway's control plane and
    // has no engine word before `Http`.)
    id: "http-data-plane",
    match: (f) => {
      const { noun } = f.words;
      if (noun[0] !== "Http" || noun.length !== 2) return undefined;
      const method = noun[1];
      if (method === "Get" || method === "Head") return READ;
      if (method === "Delete") return DELETE;
      return method === "Put" || method === "Post" || method === "Patch" ? WRITE : undefined;
    },
  },
  {
    // An NFS client of a file system: mounting enters the store (as a database login), writing
    // writes its files; root access (bypassing file permissions) stays administration.
    id: "file-system-client",
    match: (f) => {
      if (f.words.verb !== "Client") return undefined;
      const [what] = f.words.noun;
      return what === "Mount" ? USE : what === "Write" ? WRITE : undefined;
    },
  },
  {
    // Running a statement or query: a run AWS rates Write can change data (SQL DML, CTAS, results
    // written out) and is write-data, as k9's rds-data:ExecuteStatement; one AWS rates Read can only
    // read, and reads the data its results expose. The transaction verbs around statements write
    // (k9: rds-data:BeginTransaction, CommitTransaction, RollbackTransaction).
    id: "run-statement",
    match: (f) => {
      const { verb, noun } = f.words;
      if (!RUN_VERBS.has(verb)) return undefined;
      const head = last(noun);
      const statement = head !== undefined && STATEMENT_WORDS.has(head);
      const query = noun[0] === "Query" || noun[0] === "Queries";
      if (!statement && !query) return undefined;
      // `StartTelemetryQuerySession` opens a session (use-resource below).
      if (head === "Session" && verb === "Start") return undefined;
      // Stopping a running query or statement manages the engine's work without touching data
      // (AWS's AmazonTimestreamReadOnlyAccess grants CancelQuery); cancelling a transaction rolls
      // its writes back.
      if ((verb === "Cancel" || verb === "Stop") && !has(noun, "Transaction")) return USE;
      // A read, or a statement that previews data (`glue:RunDataPreviewStatement`), only reads.
      if (isRead(f) || has(noun, "Preview")) return READ;
      // A SQL statement, or a query in a database or analytics engine, can change data; a query
      // over a monitoring service's telemetry (CloudTrail Lake, Logs Insights) only reads it.
      const engine = f.category !== undefined && DATA_ENGINE_CATEGORIES.has(f.category);
      return engine || has(noun, "Statement", "Statements", "Sql", "Transaction") ? WRITE : READ;
    },
  },
  {
    // Git over CodeCommit: a pull reads the repository, a push writes to it.
    id: "git",
    match: (f) => {
      if (f.words.verb !== "Git") return undefined;
      return f.words.noun[0] === "Pull" ? READ : WRITE;
    },
  },
  {
    // Exporting a resource's data (a snapshot or log group to S3) writes it out; cancelling leaves
    // part of it (k9: rds:StartExportTask, rds:CancelExportTask).
    id: "export-data",
    match: (f) => {
      const { verb, noun } = f.words;
      if (verb !== "Start" && verb !== "Create" && verb !== "Cancel") return undefined;
      return noun[0] === "Export" && last(noun) === "Task" ? WRITE : undefined;
    },
  },
  {
    // Entering a resource: assuming a role, connecting to a database, invoking a function.
    id: "use-resource",
    match: (f) => {
      const { verb, noun } = f.words;
      if (USE_VERBS.has(verb)) return USE;
      if (verb === "Connect" && noun.length === 0) return USE;
      if ((verb === "Start" || verb === "Resume") && has(noun, "Session", "Connection")) return USE;
      // Running commands on an instance or sending a login key enters it.
      if (verb === "Send" && has(noun, "Command", "SSH", "Serial")) return USE;
      if (verb === "Execute") return USE;
      // A session opened on a service (`s3express:CreateSession`) or its connection endpoint.
      if (verb === "Create" && noun.length === 1 && noun[0] === "Session") return USE;
      if (verb === "Get" && has(noun, "Session") && last(noun) === "Endpoint") return USE;
      // A gate on a data-plane API (`ds:AccessDSData`); AWS rates the read gates Read.
      if (verb === "Access" && !isRead(f)) return USE;
      // OpenSearch Serverless gates on a collection's APIs and dashboards (`aoss:APIAccessAll`).
      if (noun[0] === "Access" && last(noun) === "All") return USE;
      return undefined;
    },
  },
  {
    // Replication writes objects, deletes and tags into the destination (s3:ReplicateDelete).
    id: "replicate-content",
    match: (f) => {
      const { verb, noun } = f.words;
      // Starting replication copies the source's data into the destination (s3:InitiateReplication).
      if (
        (verb === "Initiate" || verb === "Start") &&
        noun.length === 1 &&
        noun[0] === "Replication"
      )
        return WRITE;
      if (verb !== "Replicate") return undefined;
      return noun[0] === "Delete" || noun[0] === "Tags" || isData(f) ? WRITE : undefined;
    },
  },
  {
    // AWS marks some reads of policies as permissions management; reading is still reading.
    id: "permissions-read",
    match: (f) =>
      f.accessLevel === "Permissions management" && verbIn(f, READ_VERBS) ? CONFIG : undefined,
  },
  {
    id: "permissions-management",
    match: (f) => (f.accessLevel === "Permissions management" ? ADMIN : undefined),
  },
  {
    id: "tagging-read",
    match: (f) => (f.accessLevel === "Tagging" && verbIn(f, READ_VERBS) ? CONFIG : undefined),
  },
  {
    // Tags on data items (object tags) are part of the data; tags on resources steer ABAC.
    id: "tagging-data",
    match: (f) => {
      if (f.accessLevel !== "Tagging" || !has(f.words.noun, ...DATA_NOUNS)) return undefined;
      return isDelete(f) || f.words.verb === "Untag" ? DELETE : WRITE;
    },
  },
  {
    // Tags on a session or token ride on the caller's credentials (sts:TagSession, as k9).
    id: "tagging-credentials",
    match: (f) => {
      if (f.accessLevel !== "Tagging") return undefined;
      return has(f.words.noun, "Session") || last(f.words.noun) === "Token" ? WRITE : undefined;
    },
  },
  {
    id: "tagging-resource",
    match: (f) => (f.accessLevel === "Tagging" ? ADMIN : undefined),
  },
  {
    // PartiQL statements act on items: Select reads, Insert/Update write, Delete deletes.
    id: "partiql-statement",
    match: (f) => {
      if (!f.words.modifiers.includes("PartiQL")) return undefined;
      if (f.words.verb === "Select") return READ;
      return f.words.verb === "Delete" ? DELETE : WRITE;
    },
  },
  {
    // Cryptographic operations: producing ciphertext, keys or signatures writes data.
    id: "crypto-write",
    match: (f) => {
      const { verb, noun } = f.words;
      if (verb === "Encrypt") return WRITE;
      if (
        verb === "Generate" &&
        (has(noun, "Mac", "Random") || (has(noun, "Data") && has(noun, "Key")))
      )
        return WRITE;
      return undefined;
    },
  },
  {
    // Decrypting and verifying reveal or check protected content.
    id: "crypto-read",
    match: (f) => {
      const { verb, noun } = f.words;
      if (verb === "Decrypt" || verb === "Derive") return READ;
      if (verb === "Verify" && (noun.length === 0 || has(noun, "Mac", "Signature"))) return READ;
      return undefined;
    },
  },
  {
    // Temporary credentials and tokens are secrets handed to the caller (sts:GetSessionToken).
    id: "issue-credentials",
    match: (f) => {
      const head = last(f.words.noun);
      const secret = head === "Token" || head === "Credentials";
      return f.words.verb === "Get" && secret && f.accessLevel !== "List" ? READ : undefined;
    },
  },
  {
    id: "read-data-verb",
    match: (f) => {
      const head = last(f.words.noun);
      if (!verbIn(f, DATA_READ_VERBS)) return undefined;
      // `QuerySchemaVersionMetadata` reads settings; a policy simulation reveals effective access.
      return f.words.verb !== "Simulate" && head && CONFIG_WORDS.has(head) ? undefined : READ;
    },
  },
  {
    // Credential reports, access advisor and last-used data describe the account's activity.
    id: "usage-report",
    match: (f) =>
      isRead(f) &&
      (f.words.verb === "Generate" || f.words.verb === "Get") &&
      isUsageReport(f.words.noun)
        ? READ
        : undefined,
  },
  {
    // Describe and List return metadata even when they name data (`DescribeDBParameters`).
    id: "read-data-noun",
    match: (f) =>
      f.accessLevel === "Read" &&
      f.words.verb !== "Describe" &&
      f.words.verb !== "List" &&
      isData(f)
        ? READ
        : undefined,
  },
  {
    // A `Get` of data that iam-data rates Write still reads it (`backup-storage:GetChunk`).
    id: "get-data-rated-write",
    match: (f) =>
      f.accessLevel === "Write" && f.words.verb === "Get" && isData(f) ? READ : undefined,
  },
  {
    // A console view of queries shows their results (`redshift:ViewQueriesFromConsole`).
    id: "view-query-results",
    match: (f) =>
      f.words.verb === "View" && has(f.words.noun, "Query", "Queries") ? READ : undefined,
  },
  {
    // Listing one bucket lists its object keys, the names of its data (k9: s3:ListBucket).
    id: "list-bucket-contents",
    match: (f) =>
      f.words.verb === "List" && f.words.noun.length === 1 && f.words.noun[0] === "Bucket"
        ? READ
        : undefined,
  },
  {
    id: "read-config",
    match: (f) => (isRead(f) ? CONFIG : undefined),
  },
  {
    // Describe and List only look, whatever level iam-data gives them
    // (`backup-storage:DescribeBackupJob` is Write, `backup:DescribeBackupJob` Read).
    id: "read-verb-rated-write",
    match: (f) => (f.words.verb === "Describe" || f.words.verb === "List" ? CONFIG : undefined),
  },
  {
    id: "write-data-verb",
    match: (f) => (verbIn(f, DATA_WRITE_VERBS) ? WRITE : undefined),
  },
  {
    // Purging empties a queue or cache of everything it holds.
    id: "purge",
    match: (f) => (f.words.verb === "Purge" ? DELETE : undefined),
  },
  {
    id: "delete-content",
    match: (f) => (isDelete(f) && isData(f) ? DELETE : undefined),
  },
  {
    // A backup or snapshot is a copy of data, not a live resource others depend on.
    id: "delete-data-copy",
    match: (f) => {
      return isDelete(f) && isDataCopy(f.words.noun) ? DELETE : undefined;
    },
  },
  {
    // Deleting a live data store removes the resource and everything in it.
    id: "delete-data-store",
    match: (f) => {
      const verb = f.words.verb;
      if ((verb !== "Delete" && verb !== "Drop") || !isDataStore(f)) return undefined;
      return ["administer-resource", "delete-data"];
    },
  },
  {
    // Restoring a snapshot or backup into a new resource hands its data to the caller (k9:
    // rds:RestoreDBInstanceFromDBSnapshot), however named (`lightsail:CreateDiskFromSnapshot`).
    // Restores to a point in time or from S3 name no copy (k9: administer-resource only).
    id: "restore-from-copy",
    match: (f) => {
      const { verb, noun } = f.words;
      const from = noun.indexOf("From");
      // `RestoreSnapshotFromRecycleBin` only undeletes the copy.
      if ((verb !== "Restore" && verb !== "Create") || from < 0 || isDataCopy(noun.slice(0, 1)))
        return undefined;
      const source = verb === "Restore" ? noun : noun.slice(from + 1);
      return has(source, ...DATA_COPY_NOUNS) ? ["administer-resource", "read-data"] : undefined;
    },
  },
  {
    // A new snapshot, or a new replica of a data-holding resource, is a new resource filled with
    // the source's data (k9: rds:CreateDBSnapshot, dynamodb:CreateTableReplica). A read replica
    // of a database is a new database instance (k9: rds:CreateDBInstanceReadReplica is
    // administer-resource only), a copy of a snapshot or a backup job copies an existing copy
    // (k9: rds:CopyDBSnapshot, dynamodb:CreateBackup): neither matches.
    id: "create-snapshot",
    match: (f) => {
      const { verb, noun } = f.words;
      const head = last(noun);
      if (verb !== "Create") return undefined;
      // A snapshot of policies, rules or templates copies configuration, not data.
      const ofConfig = noun.some((w) => CONFIG_CONTEXT.has(w) || w === "Deployment");
      const snapshot = (head === "Snapshot" || head === "Snapshots") && !ofConfig;
      const replica =
        (head === "Replica" || head === "Replicas") &&
        isDataStore({ category: f.category, words: { ...f.words, noun: noun.slice(0, -1) } });
      return snapshot || replica ? ["administer-resource", "write-data"] : undefined;
    },
  },
  {
    id: "write-content",
    match: (f) => (verbIn(f, CONTENT_WRITE_VERBS) && isData(f) ? WRITE : undefined),
  },
  {
    // `sns:Publish`, `iot:Publish`: sending content with no further noun.
    id: "publish",
    match: (f) => {
      const bare = ["Publish", "Send", "Post", "Upload", "Push", "Put"];
      return bare.includes(f.words.verb) && f.words.noun.length === 0 ? WRITE : undefined;
    },
  },
  {
    // Every other write creates, deletes or reconfigures a resource: control-plane power.
    id: "write-control-plane",
    match: () => ADMIN,
  },
];
