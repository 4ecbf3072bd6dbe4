// Word lists used by the AWS classification rules. A word is matched whole and case-sensitively
// against the capitalised words of an action name (see action-words.ts).

/** Verbs that only look at things. */
export const READ_VERBS = new Set([
  "Get",
  "Describe",
  "List",
  "View",
  "Search",
  "Lookup",
  "Query",
  "Scan",
  "Select",
  "Read",
  "Download",
  "Retrieve",
  "Fetch",
  "Check",
  "Count",
  "Is",
  "Preview",
  "Show",
  "Head",
  "Browse",
  "Explain",
  "Estimate",
  "Calculate",
  "Validate",
  "Test",
  "Evaluate",
  "Compare",
]);

/** Verbs that read the content a resource holds, whatever the noun. */
export const DATA_READ_VERBS = new Set([
  "Download",
  "Query",
  "Scan",
  "Select",
  "Receive",
  "Fetch",
  "Decrypt",
  "Unmask",
  "Reveal",
  "Simulate",
  "Filter",
  "Unload",
]);

/** Verbs that put new content into a resource, whatever the noun. */
export const DATA_WRITE_VERBS = new Set([
  "Write",
  "Insert",
  "Encrypt",
  "Sign",
  "Ingest",
  "Append",
  "Upsert",
]);

/** Verbs that write content when their noun is data (`PutItem`, `SendMessage`, `UploadPart`). */
export const CONTENT_WRITE_VERBS = new Set([
  "Put",
  "Upload",
  "Send",
  "Publish",
  "Post",
  "Push",
  "Update",
  "Modify",
  "Replicate",
  "Create",
  "Import",
  "Store",
  "Restore",
  "Initiate",
  "Abort",
  "Complete",
  "Copy",
  "Change",
  "Merge",
  "Batch",
  "Set",
  "Add",
  "Generate",
]);

/** Verbs that destroy content when their noun is data (`DeleteObject`, `PurgeQueue`). */
export const CONTENT_DELETE_VERBS = new Set([
  "Delete",
  "Remove",
  "Purge",
  "Clear",
  "Flush",
  "Truncate",
  "Drop",
  "Wipe",
  "Erase",
  "Discard",
  "Destroy",
]);

/** Verbs that enter or use a resource without touching its content (`sts:AssumeRole`). */
export const USE_VERBS = new Set(["Assume", "Invoke", "Call", "Use"]);

/**
 * Nouns that are data wherever they stand in the noun phrase (`GetObjectVersion`), unless the last
 * word is a configuration word (`GetObjectAcl`).
 */
export const DATA_NOUNS = new Set([
  "Object",
  "Objects",
  "Item",
  "Items",
  "Record",
  "Records",
  "Message",
  "Messages",
  "Blob",
  "Blobs",
  "Row",
  "Rows",
  "Vector",
  "Vectors",
]);

/** Words that may follow a data noun and keep it data (`GetObjectVersionForReplication`). */
export const DATA_TRAILERS = new Set([
  "Version",
  "Versions",
  "Torrent",
  "For",
  "Replication",
  "Content",
  "Contents",
  "Data",
  "Body",
  "Batch",
  "Part",
  "Parts",
  "Value",
  "Values",
  "Annotation",
  "Annotations",
]);

/** Data nouns particular to a service category (iam-data's categories). */
export const CATEGORY_DATA_NOUNS: Readonly<Record<string, ReadonlySet<string>>> = {
  // Container images and their layers are what a registry stores.
  containers: new Set(["Image", "Images", "Layer", "Manifest"]),
  // Source repositories hold commits, branches and review comments.
  "developer-tools": new Set(["Commit", "Commits", "Comment", "Comments", "Branch", "Branches"]),
};

/** Nouns that are data only as the last word (`GetFile`, but not `CreateFileSystem`). */
export const DATA_HEAD_NOUNS = new Set([
  "File",
  "Files",
  "Data",
  "Content",
  "Contents",
  "Events",
  "Value",
  "Values",
  "Part",
  "Parts",
  "Iterator",
  "Results",
  "Result",
  "Torrent",
  "Chunk",
  "Chunks",
  "Parameter",
  "Parameters",
  "Layer",
  "Material",
  "Email",
  "Upload",
]);

/** Last words that make a noun phrase configuration even when it names data (`GetObjectAcl`). */
export const CONFIG_WORDS = new Set([
  "Acl",
  "Policy",
  "Policies",
  "Tagging",
  "Tags",
  "Tag",
  "Retention",
  "Hold",
  "Attributes",
  "Attribute",
  "Configuration",
  "Configurations",
  "Config",
  "Settings",
  "Setting",
  "Status",
  "Metadata",
  "Location",
  "Permission",
  "Permissions",
  "Versioning",
  "Lifecycle",
  "Encryption",
  "Notification",
  "Logging",
  "Website",
  "Schema",
  "Properties",
  "Ownership",
  "Uploads",
  "Versions",
  "Summary",
  "Preference",
  "Preferences",
]);

/**
 * Live data stores whose deletion destroys what they hold, in any service (`DeleteVolume`,
 * `DeleteLedger`). Stores that must be emptied first (S3 buckets, Glacier and Backup vaults) are
 * not listed.
 */
export const DATA_STORE_NOUNS = new Set([
  "Volume",
  "Volumes",
  "Ledger",
  "Database",
  "Keyspace",
  "Datastore",
  "Datastores",
]);

/**
 * Store nouns that hold data only in some kinds of service (iam-data's categories): a queue of
 * messages (SQS, not a Batch job queue or a Connect routing queue), a repository of code,
 * packages or images (not a SageMaker or EMR link to an outside Git repository).
 */
export const CATEGORY_STORE_NOUNS: Readonly<Record<string, ReadonlySet<string>>> = {
  "application-integration": new Set(["Queue"]),
  "developer-tools": new Set(["Repository"]),
  containers: new Set(["Repository"]),
};

/**
 * Qualifiers that make a store noun name something that only points at or forwards data kept
 * elsewhere: an event or metric stream exports to Kinesis, a configured or ID-mapping table
 * references a Glue table, a virtual cluster maps a namespace onto EKS.
 */
export const NOT_A_STORE_QUALIFIERS = new Set(["Event", "Metric", "Configured", "Virtual", "Id"]);

/** Nouns that are data stores only in storage, database and analytics services (not `DeleteRouteTable`). */
export const STORE_CATEGORY_NOUNS = new Set([
  "Table",
  "Tables",
  "Cluster",
  "Clusters",
  "Index",
  "Replica",
  "Collection",
  "Dataset",
  "Datastore",
  "Graph",
  "Store",
  "Warehouse",
  "Domain",
  "Namespace",
  "Stream",
  "Cache",
  "Caches",
]);

export const STORE_CATEGORIES = new Set(["storage", "databases", "analytics"]);

/** Words that make a phrase describe configuration even when it ends in a data word (`GetLaunchTemplateData`). */
export const CONFIG_CONTEXT = new Set([
  "Template",
  "Templates",
  "Scope",
  "Rule",
  "Rules",
  "Policy",
  "Policies",
  "Configuration",
  "Schema",
  "Default",
  // Catalogue entries, registries and insights describe other resources or findings about them.
  "Catalog",
  "Registry",
  "Insight",
]);

/** Copies of data: deleting one destroys data without reconfiguring a live resource. */
export const DATA_COPY_NOUNS = new Set([
  "Backup",
  "Backups",
  "Snapshot",
  "Snapshots",
  "Recovery",
  "Archive",
]);
