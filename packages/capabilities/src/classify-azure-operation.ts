import type { Capability } from "./capability.ts";

export interface AzureOperationInput {
  /** `Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read`. */
  operation: string;
  /** Listed as a dataAction or notDataAction by some built-in role. */
  isDataAction: boolean;
}

export interface AzureClassification {
  capabilities: Capability[];
  rule: string;
}

export type AzureOperationType = "read" | "write" | "delete" | "action";

/** The last segment (`read`, `write`, `delete`, `action`); anything else counts as an action. */
export function azureOperationType(operation: string): AzureOperationType {
  const last = operation.slice(operation.lastIndexOf("/") + 1).toLowerCase();
  return last === "read" || last === "write" || last === "delete" ? last : "action";
}

/** For `…/listKeys/action` the verb segment is `listKeys`; for `…/blobs/read` it is `blobs`. */
function verbSegment(operation: string): string {
  const parts = operation.split("/");
  return (parts.length >= 2 ? parts[parts.length - 2] : parts[0]) ?? "";
}

/** First word of a camelCase or lower-case segment, lower-cased (`listKeys` -> `list`). */
function firstWord(segment: string): string {
  const clean = segment.replace(/^.*:/, "");
  return (clean.match(/^[A-Za-z][a-z]*/)?.[0] ?? clean).toLowerCase();
}

const PERMISSION_WORDS = /permission|ownership|owner|acl|superuser|administrator|accesspolic/i;
const CREDENTIAL_ACTIONS =
  /^(list|get|fetch|retrieve)[a-z]*(keys?|secrets?|credentials?|sas|connectionstrings?|password|token)s?$/i;
const READ_WORDS = new Set([
  "read",
  "get",
  "list",
  "query",
  "search",
  "download",
  "decrypt",
  "unwrap",
  "verify",
  "receive",
  "find",
  "detect",
  "analyze",
  "identify",
  "compare",
  "retrieve",
  "fetch",
  "export",
  "check",
  "validate",
  "view",
  "readmetadata",
  "readbyid",
  "numsub",
  "numpat",
  "scriptexists",
]);
const DELETE_WORDS = new Set([
  "delete",
  "purge",
  "harddelete",
  "remove",
  "clear",
  "flush",
  "scriptflush",
]);
const USE_WORDS = new Set([
  "login",
  "connect",
  "exec",
  "execute",
  "act",
  "impersonate",
  "debug",
  "remotedebugging",
  "interact",
  "use",
  "logstream",
  "ssh",
  "console",
  "invoke",
  "subscribe",
  "psubscribe",
  "unsubscribe",
  "punsubscribe",
]);
/** Deleting these removes a live store of data together with the resource. */
const DATA_STORES =
  /^(storageaccounts|databaseaccounts|databases|servers|flexibleservers|managedinstances|containers|fileshares|shares|tables|queues|vaults|managedhsms|disks|registries|namespaces|eventhubs|topics|workspaces|accounts)$/i;
const DATA_COPIES = /^(snapshots|backups|backupinstances|recoverypoints|restorepoints)$/i;

/** Ordered rules; see README "Azure rules". */
export function classifyAzureOperation(input: AzureOperationInput): AzureClassification {
  const { operation, isDataAction } = input;
  const type = azureOperationType(operation);
  const segment = verbSegment(operation);
  const word = firstWord(segment);
  const provider = operation.split("/")[0]?.toLowerCase();

  if (isDataAction) {
    if (PERMISSION_WORDS.test(segment) && type === "action")
      return { capabilities: ["administer-resource"], rule: "data-permissions" };
    if (type === "read") return { capabilities: ["read-data"], rule: "data-read" };
    if (type === "write") return { capabilities: ["write-data"], rule: "data-write" };
    if (type === "delete") return { capabilities: ["delete-data"], rule: "data-delete" };
    if (DELETE_WORDS.has(word))
      return { capabilities: ["delete-data"], rule: "data-action-delete" };
    if (READ_WORDS.has(word)) return { capabilities: ["read-data"], rule: "data-action-read" };
    if (USE_WORDS.has(word)) return { capabilities: ["use-resource"], rule: "data-action-use" };
    return { capabilities: ["write-data"], rule: "data-action-write" };
  }

  if (provider === "microsoft.authorization") {
    return type === "read"
      ? { capabilities: ["read-config"], rule: "authorization-read" }
      : { capabilities: ["administer-resource"], rule: "authorization-change" };
  }
  if (type === "read") return { capabilities: ["read-config"], rule: "control-read" };
  if (type === "write") return { capabilities: ["administer-resource"], rule: "control-write" };
  if (type === "delete") {
    if (DATA_COPIES.test(segment))
      return { capabilities: ["delete-data"], rule: "delete-data-copy" };
    if (DATA_STORES.test(segment))
      return { capabilities: ["administer-resource", "delete-data"], rule: "delete-data-store" };
    return { capabilities: ["administer-resource"], rule: "control-delete" };
  }
  // Keys, SAS tokens and secrets open the data to whoever lists them.
  if (CREDENTIAL_ACTIONS.test(segment))
    return { capabilities: ["read-data"], rule: "list-credentials" };
  if (USE_WORDS.has(word)) return { capabilities: ["use-resource"], rule: "control-action-use" };
  if (READ_WORDS.has(word) && word !== "export")
    return { capabilities: ["read-config"], rule: "control-action-read" };
  return { capabilities: ["administer-resource"], rule: "control-action" };
}
