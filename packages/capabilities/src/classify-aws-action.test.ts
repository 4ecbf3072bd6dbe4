import { describe, expect, it } from "vitest";
import { splitActionName } from "./action-words.ts";
import type { AwsAccessLevel } from "./aws-access-level.ts";
import { classifyAwsAction, classifyAwsActionByRules } from "./classify-aws-action.ts";

// Synthetic actions of a made-up service pin what each rule generalises to.
const classify = (name: string, accessLevel: AwsAccessLevel, category?: string) =>
  classifyAwsActionByRules({ prefix: "example", name, accessLevel, category });

describe("splitActionName", () => {
  it("separates modifiers, verb and noun, keeping acronyms whole", () => {
    expect(splitActionName("BatchGetItem")).toEqual({
      verb: "Get",
      noun: ["Item"],
      modifiers: ["Batch"],
    });
    expect(splitActionName("DescribeDBInstances").noun).toEqual(["DB", "Instances"]);
    expect(splitActionName("PartiQLSelect")).toMatchObject({
      verb: "Select",
      modifiers: ["PartiQL"],
    });
    expect(splitActionName("connect")).toMatchObject({ verb: "Connect", noun: [] });
    expect(splitActionName("GetClusterCredentialsWithIAM")).toEqual({
      verb: "Get",
      noun: ["Cluster", "Credentials"],
      modifiers: ["WithIAM"],
    });
    expect(splitActionName("InvokeAsync")).toEqual({
      verb: "Invoke",
      noun: [],
      modifiers: ["Async"],
    });
  });
});

describe("AWS classification rules", () => {
  it.each([
    ["GetWidget", "Read", undefined, ["read-config"], "read-config"],
    ["GetObjectVersion", "Read", undefined, ["read-data"], "read-data-noun"],
    ["GetObjectAcl", "Read", undefined, ["read-config"], "read-config"],
    ["DescribeParameters", "List", undefined, ["read-config"], "read-config"],
    ["PutRecord", "Write", undefined, ["write-data"], "write-content"],
    ["DeleteMessage", "Write", undefined, ["delete-data"], "delete-content"],
    ["DeleteBackup", "Write", undefined, ["delete-data"], "delete-data-copy"],
    [
      "DeleteTable",
      "Write",
      "databases",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    [
      "DeleteRouteTable",
      "Write",
      "networking-and-content-delivery",
      ["administer-resource"],
      "write-control-plane",
    ],
    [
      "CreateSnapshot",
      "Write",
      undefined,
      ["administer-resource", "write-data"],
      "create-snapshot",
    ],
    ["TagResource", "Tagging", undefined, ["administer-resource"], "tagging-resource"],
    ["PutObjectTagging", "Tagging", undefined, ["write-data"], "tagging-data"],
    [
      "PutWidgetPolicy",
      "Permissions management",
      undefined,
      ["administer-resource"],
      "permissions-management",
    ],
    ["GetWidgetPolicy", "Permissions management", undefined, ["read-config"], "permissions-read"],
    ["AssumeWidgetRole", "Write", undefined, ["use-resource"], "use-resource"],
    ["InvokeWidget", "Write", undefined, ["use-resource"], "use-resource"],
    ["Decrypt", "Write", undefined, ["read-data"], "crypto-read"],
    ["GenerateDataKey", "Write", undefined, ["write-data"], "crypto-write"],
    ["ExecuteStatement", "Write", undefined, ["write-data"], "run-statement"],
    ["StartQueryExecution", "Write", "analytics", ["write-data"], "run-statement"],
    ["StartQuery", "Write", "management-and-governance", ["read-data"], "run-statement"],
    ["StartQuery", "Read", "analytics", ["read-data"], "run-statement"],
    ["RollbackTransaction", "Write", undefined, ["write-data"], "run-statement"],
    ["CancelStatement", "Write", "analytics", ["use-resource"], "run-statement"],
    ["connect", "Permissions management", undefined, ["use-resource"], "data-store-login"],
    ["DbConnectAdmin", "Write", "databases", ["use-resource"], "data-store-login"],
    ["GetClusterCredentials", "Write", "analytics", ["use-resource"], "data-store-login"],
    ["GetClusterCredentialsWithIAM", "Write", "analytics", ["use-resource"], "data-store-login"],
    ["GetCredentials", "Write", "databases", ["use-resource"], "data-store-login"],
    ["GetWidgetCredentials", "Write", "analytics", ["read-data"], "issue-credentials"],
    [
      "GetClusterCredentials",
      "Write",
      "security-identity-and-compliance",
      ["read-data"],
      "issue-credentials",
    ],
    ["GetQueryResultsStream", "Read", undefined, ["read-data"], "read-data-noun"],
    ["GenerateQueryResultsSummary", "Read", undefined, ["read-data"], "read-data-noun"],
    ["GetQueryResultsTopContributors", "Read", undefined, ["read-data"], "read-data-noun"],
    ["ReadDataViaQuery", "Read", undefined, ["read-data"], "read-data-noun"],
    ["ReadDataForReplication", "Read", undefined, ["read-data"], "read-data-noun"],
    ["DeleteDataViaQuery", "Write", undefined, ["delete-data"], "delete-content"],
    ["ListBucket", "List", undefined, ["read-data"], "list-bucket-contents"],
    ["ListBuckets", "List", undefined, ["read-config"], "read-config"],
    ["DescribeWidgetJob", "Write", undefined, ["read-config"], "read-verb-rated-write"],
    ["InitiateReplication", "Write", undefined, ["write-data"], "replicate-content"],
    [
      "CreateTableReplica",
      "Write",
      "databases",
      ["administer-resource", "write-data"],
      "create-snapshot",
    ],
    [
      "CreateDBInstanceReadReplica",
      "Write",
      "databases",
      ["administer-resource"],
      "write-control-plane",
    ],
    [
      "CreateBotReplica",
      "Write",
      "machine-learning",
      ["administer-resource"],
      "write-control-plane",
    ],
    [
      "DeleteEventDataStore",
      "Write",
      "management-and-governance",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    [
      "DeleteTrail",
      "Write",
      "management-and-governance",
      ["administer-resource"],
      "write-control-plane",
    ],
    ["GetSessionToken", "Write", undefined, ["read-data"], "issue-credentials"],
    ["PassWidget", "Write", undefined, ["administer-resource"], "pass-to-service"],
    ["UpdateWidget", "Write", undefined, ["administer-resource"], "write-control-plane"],
    ["PurgeQueue", "Write", undefined, ["delete-data"], "purge"],
    ["PassWidget", "Read", undefined, ["use-resource"], "pass-to-service"],
    ["CreateSession", "Write", undefined, ["use-resource"], "use-resource"],
    ["CreateWidgetSession", "Write", undefined, ["administer-resource"], "write-control-plane"],
    ["GetSessionEndpoint", "Write", undefined, ["use-resource"], "use-resource"],
    ["AccessWidgetData", "Permissions management", undefined, ["use-resource"], "use-resource"],
    ["CancelQuery", "Write", undefined, ["use-resource"], "run-statement"],
    ["StopQueryExecution", "Write", undefined, ["use-resource"], "run-statement"],
    ["StartExportTask", "Write", undefined, ["write-data"], "export-data"],
    ["CancelExportTask", "Write", undefined, ["write-data"], "export-data"],
    ["CreateExportTask", "Write", undefined, ["write-data"], "export-data"],
    ["TagSession", "Tagging", undefined, ["write-data"], "tagging-credentials"],
    ["TagGetWidgetToken", "Tagging", undefined, ["write-data"], "tagging-credentials"],
    ["GetCredentialReport", "Read", undefined, ["read-data"], "usage-report"],
    ["GetFindingsReportStatus", "Read", undefined, ["read-config"], "read-config"],
    ["GetRepositoryCatalogData", "Read", undefined, ["read-config"], "read-config"],
    ["GetRegistryRecord", "Read", undefined, ["read-config"], "read-config"],
    ["GetInsightResults", "Read", undefined, ["read-config"], "read-config"],
    ["GetQueryResults", "Read", undefined, ["read-data"], "read-data-noun"],
    ["GetChunk", "Write", undefined, ["read-data"], "get-data-rated-write"],
    [
      "DeleteQueue",
      "Write",
      "application-integration",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    ["DeleteQueue", "Write", "compute", ["administer-resource"], "write-control-plane"],
    ["DeleteJobQueue", "Write", "analytics", ["administer-resource"], "write-control-plane"],
    [
      "DeleteLogStream",
      "Write",
      "management-and-governance",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    [
      "DeleteStream",
      "Write",
      "analytics",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    ["DeleteEventStream", "Write", "analytics", ["administer-resource"], "write-control-plane"],
    ["DeleteConfiguredTable", "Write", "analytics", ["administer-resource"], "write-control-plane"],
    [
      "DeleteRepository",
      "Write",
      "developer-tools",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    [
      "DeleteCodeRepository",
      "Write",
      "machine-learning-and-ai",
      ["administer-resource"],
      "write-control-plane",
    ],
    [
      "DeleteSecret",
      "Write",
      "security-identity-and-compliance",
      ["administer-resource", "delete-data"],
      "delete-data-store",
    ],
    [
      "CreateDiskFromSnapshot",
      "Write",
      undefined,
      ["administer-resource", "read-data"],
      "restore-from-copy",
    ],
    [
      "RestoreDBClusterToPointInTime",
      "Write",
      "databases",
      ["administer-resource"],
      "write-control-plane",
    ],
    ["CreatePolicySnapshot", "Write", undefined, ["administer-resource"], "write-control-plane"],
    ["CopyDBSnapshot", "Write", "databases", ["administer-resource"], "write-control-plane"],
    [
      "RunDataPreviewStatement",
      "Permissions management",
      "analytics",
      ["read-data"],
      "run-statement",
    ],
    ["StartTelemetryQuerySession", "Write", undefined, ["use-resource"], "use-resource"],
    ["ESHttpGet", "Read", "analytics", ["read-data"], "http-data-plane"],
    ["ESHttpPost", "Write", "analytics", ["write-data"], "http-data-plane"],
    ["ESHttpDelete", "Write", "analytics", ["delete-data"], "http-data-plane"],
    ["ClientMount", "Read", "storage", ["use-resource"], "file-system-client"],
    ["ClientWrite", "Write", "storage", ["write-data"], "file-system-client"],
    ["ClientRootAccess", "Write", "storage", ["administer-resource"], "write-control-plane"],
    ["APIAccessAll", "Write", "analytics", ["use-resource"], "use-resource"],
    ["ViewQueriesFromConsole", "List", "analytics", ["read-data"], "view-query-results"],
    ["GetCredentialReport", "Read", undefined, ["read-data"], "usage-report"],
    ["GetAssessmentReport", "Read", undefined, ["read-config"], "read-config"],
  ] as const)("%s (%s, %s) -> %j by %s", (name, level, category, caps, rule) => {
    const result = classify(name, level, category);
    expect(result.capabilities).toEqual(caps);
    expect(result.rule).toBe(rule);
  });

  it("lets the override table win and says why", () => {
    const input = { prefix: "sts", name: "GetCallerIdentity", accessLevel: "Read" as const };
    expect(classifyAwsActionByRules(input).capabilities).toEqual(["read-config"]);
    const result = classifyAwsAction(input);
    expect(result).toMatchObject({ capabilities: ["read-data"], rule: "override" });
    expect(result.reason).toMatch(/caller's own account/);
  });
});
