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
  "Verify",
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
]);

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
  "Statement",
  "Sql",
  "Transaction",
  "Layer",
  "Material",
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
]);

/**
 * Data stores whose deletion destroys the data they hold (`DeleteTable`, `DeleteDBInstance`). A
 * backup or snapshot is itself a copy of data, so deleting one is delete-data alone.
 */
export const DATA_STORE_NOUNS = new Set([
  "Table",
  "Tables",
  "Database",
  "Databases",
  "DB",
  "Cluster",
  "Clusters",
  "Volume",
  "Volumes",
  "Queue",
  "Stream",
  "Repository",
  "Index",
  "Replica",
  "Ledger",
  "Vault",
  "Keyspace",
  "Collection",
  "Dataset",
  "Datastore",
  "Graph",
  "Store",
  "Warehouse",
  "Lake",
  "Domain",
  "Workgroup",
  "Namespace",
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
