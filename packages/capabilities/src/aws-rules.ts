import {
  ADMIN,
  type AwsRule,
  CONFIG,
  DATA_ENGINE_CATEGORIES,
  DELETE,
  has,
  isData,
  isDataCopy,
  isDataStore,
  isDataStoreLogin,
  isDelete,
  isRead,
  isUsageReport,
  last,
  READ,
  RUN_VERBS,
  STATEMENT_WORDS,
  USE,
  verbIn,
  WRITE,
} from "./aws-rule-predicates.ts";
import {
  CONFIG_CONTEXT,
  CONFIG_WORDS,
  CONTENT_WRITE_VERBS,
  DATA_COPY_NOUNS,
  DATA_NOUNS,
  DATA_READ_VERBS,
  DATA_WRITE_VERBS,
  READ_VERBS,
  USE_VERBS,
} from "./aws-vocabulary.ts";

export type { AwsActionFacts, AwsRule } from "./aws-rule-predicates.ts";

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
