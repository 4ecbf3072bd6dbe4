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

/** Lower-cased camelCase words of a segment (`loginAsAdmin` -> login, as, admin); `x:y` keeps y. */
function segmentWords(segment: string): string[] {
  const clean = segment.replace(/^.*:/, "");
  return (clean.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [clean]).map((w) => w.toLowerCase());
}

/** Changing ACLs, owners or permissions, or acting as a superuser, is administration. */
function isPermissionChange(segment: string, words: readonly string[]): boolean {
  const lower = segment.toLowerCase();
  return (
    /permission|ownership|superuser|administrator|accesspolic/.test(lower) ||
    words.includes("acl") ||
    words.includes("owner")
  );
}

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
  "retrieve",
  "fetch",
  "export",
  "check",
  "validate",
  "view",
  "backup",
  "release",
  "numsub",
  "numpat",
  "channels",
  "scriptexists",
]);
/**
 * Data actions that deliver data to the caller: a pub/sub subscription receives every message
 * published (Garnet, Event Grid MQTT), IoT Hub's file-upload notifications. On the control plane
 * `subscribe…` creates an event subscription and stays use-resource.
 */
const DATA_READ_WORDS = new Set([
  "subscribe",
  "psubscribe",
  "unsubscribe",
  "punsubscribe",
  "notifications",
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
  "impersonation",
  "debug",
  "remotedebugging",
  "interact",
  "use",
  "logstream",
  "ssh",
  "console",
  "invoke",
  "subscribe",
  "user",
]);
/** Sending input to a hosted model or AI service uses it without reading stored data. */
const INFERENCE_WORDS = new Set([
  "completions",
  "chat",
  "embeddings",
  "audio",
  "realtime",
  "inference",
  "generate",
  "generations",
  "generateanswer",
  "detect",
  "detectliveness",
  "detectlivenesswithverify",
  "analyze",
  "analyzebinary",
  "classify",
  "classifybinary",
  "identify",
  "findsimilars",
  "multimodal",
  "singlemodal",
  "suggestions",
  "translate",
  "transcribe",
  "rerank",
  "semantic",
]);
/** Deleting these removes a live store of data together with the resource. */
const DATA_STORES =
  /^(storageaccounts|databaseaccounts|databases|servers|flexibleservers|managedinstances|containers|fileshares|shares|tables|queues|vaults|managedhsms|disks|registries|namespaces|eventhubs|topics|workspaces|accounts)$/i;
const DATA_COPIES = /^(snapshots|backups|backupinstances|recoverypoints|restorepoints)$/i;

function classifyDataAction(
  type: AzureOperationType,
  segment: string,
  words: readonly string[],
): AzureClassification {
  const word = words[0] ?? "";
  if (type === "action" && (isPermissionChange(segment, words) || word === "admin"))
    return { capabilities: ["administer-resource"], rule: "data-permissions" };
  if (words.includes("metadata")) return { capabilities: ["read-config"], rule: "data-metadata" };
  if (type === "read") return { capabilities: ["read-data"], rule: "data-read" };
  if (type === "write") return { capabilities: ["write-data"], rule: "data-write" };
  if (type === "delete") return { capabilities: ["delete-data"], rule: "data-delete" };
  if (DELETE_WORDS.has(word)) return { capabilities: ["delete-data"], rule: "data-action-delete" };
  if (READ_WORDS.has(word) || DATA_READ_WORDS.has(word))
    return { capabilities: ["read-data"], rule: "data-action-read" };
  const login = segment.toLowerCase().includes("login");
  if (login || words.some((w) => INFERENCE_WORDS.has(w) || USE_WORDS.has(w)))
    return { capabilities: ["use-resource"], rule: "data-action-use" };
  if (word === "refreshkeys" || word === "regenerate")
    return { capabilities: ["administer-resource"], rule: "data-action-keys" };
  return { capabilities: ["write-data"], rule: "data-action-write" };
}

/** Ordered rules; see README "Azure rules". */
export function classifyAzureOperation(input: AzureOperationInput): AzureClassification {
  const { operation, isDataAction } = input;
  const type = azureOperationType(operation);
  const segment = verbSegment(operation);
  const words = segmentWords(segment);
  const word = words[0] ?? "";
  const provider = operation.split("/")[0]?.toLowerCase();

  if (isDataAction) return classifyDataAction(type, segment, words);

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
  // A user delegation key signs SAS tokens that carry no more than the caller's own data
  // permissions (Microsoft Learn, "Create a user delegation SAS"): it opens nothing new, like a
  // database login, so it is use-resource — unlike account keys, which open all the data.
  if (segment.toLowerCase() === "generateuserdelegationkey")
    return { capabilities: ["use-resource"], rule: "user-delegation-key" };
  // Keys, SAS tokens and secrets open the data to whoever lists them.
  if (CREDENTIAL_ACTIONS.test(segment))
    return { capabilities: ["read-data"], rule: "list-credentials" };
  if (USE_WORDS.has(word)) return { capabilities: ["use-resource"], rule: "control-action-use" };
  if (READ_WORDS.has(word) && word !== "export")
    return { capabilities: ["read-config"], rule: "control-action-read" };
  return { capabilities: ["administer-resource"], rule: "control-action" };
}
