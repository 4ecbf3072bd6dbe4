import type { Capability } from "./capability.ts";

export interface AwsOverride {
  capabilities: readonly Capability[];
  /** One line: why the rules are wrong here, or why we differ from k9. */
  reason: string;
}

/**
 * Reviewed exceptions to the rules, keyed by action (canonical case). An entry whose capabilities
 * equal the rules' result pins a deliberate disagreement with k9 and records why. Every entry must
 * name an action that exists in iam-data (a test checks it).
 */
export const AWS_OVERRIDES: Readonly<Record<string, AwsOverride>> = {
  // Account, Data Pipeline
  "account:GetPrimaryEmail": {
    capabilities: ["read-config"],
    reason:
      "the account's contact address, like its other contact information; AWS's SecurityAudit names it",
  },
  "datapipeline:QueryObjects": {
    capabilities: ["read-config"],
    reason:
      "queries a pipeline's definition objects and run instances, not the data it moves; AWS's SecurityAudit names it",
  },
  // CloudTrail, CloudWatch
  "cloudtrail:LookupEvents": {
    capabilities: ["read-config"],
    reason:
      "event history holds management events, records of control-plane calls; AWS's ViewOnlyAccess and SecurityAudit grant it",
  },
  "cloudwatch:GetMetricData": {
    capabilities: ["read-config"],
    reason:
      "returns the same metric datapoints as GetMetricStatistics (read-config); AWS's ViewOnlyAccess grants both",
  },
  // DynamoDB
  "dynamodb:DeleteTable": {
    capabilities: ["administer-resource", "delete-data"],
    reason:
      "differs from k9: removing the table is control-plane power too, as k9 says of rds:DeleteDBInstance",
  },
  "dynamodb:RestoreTableFromBackup": {
    capabilities: ["administer-resource", "read-data"],
    reason:
      "differs from k9: a restored table hands the backup's items to the caller, as k9 says of rds:Restore…FromDBSnapshot",
  },
  // Catalogue, preparation and BI services in the analytics category describe data kept elsewhere
  // (S3, the source database); deleting their entries leaves the data.
  "databrew:DeleteDataset": {
    capabilities: ["administer-resource"],
    reason: "a DataBrew dataset is a reference to data in S3 or a database, which stays",
  },
  "datazone:DeleteDomain": {
    capabilities: ["administer-resource"],
    reason: "a DataZone domain holds the business catalog's metadata; the catalogued data stays",
  },
  "quicksight:DeleteNamespace": {
    capabilities: ["administer-resource"],
    reason: "a QuickSight namespace groups users and groups, not data",
  },
  "glue:BatchDeleteTable": {
    capabilities: ["administer-resource"],
    reason: "removes catalog metadata; the table's data stays in its S3 location",
  },
  "glue:DeleteDatabase": {
    capabilities: ["administer-resource"],
    reason: "removes catalog metadata; the tables' data stays in S3",
  },
  "glue:DeletePartitionIndex": {
    capabilities: ["administer-resource"],
    reason: "drops a catalog index, not data",
  },
  "glue:DeleteTable": {
    capabilities: ["administer-resource"],
    reason: "removes catalog metadata; the table's data stays in its S3 location",
  },
  // CodeCommit
  "codecommit:GetBranch": {
    capabilities: ["read-config"],
    reason:
      "returns only the branch's name and head commit ID, like ListBranches; AWS's SecurityAudit grants it (commits and files stay read-data)",
  },
  // Glacier
  "glacier:GetJobOutput": {
    capabilities: ["read-data"],
    reason: "downloads a retrieval job's output: the archive itself, or the vault inventory",
  },
  // IAM
  "iam:AddClientIDToOpenIDConnectProvider": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (write-data): a new audience lets more tokens federate into roles, and k9's RemoveClientID… is administer-resource",
  },
  "iam:GetAccountSummary": {
    capabilities: ["read-data"],
    reason: "as k9: reports root MFA and access-key presence alongside entity counts",
  },
  "iam:GetServiceLinkedRoleDeletionStatus": {
    capabilities: ["read-data"],
    reason: "as k9: the failure reason lists the resources that use the role",
  },
  "iam:TagRole": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (write-data): principal tags feed aws:PrincipalTag conditions, so they change who can access what",
  },
  "iam:TagUser": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (write-data): principal tags feed aws:PrincipalTag conditions, so they change who can access what",
  },
  "iam:UntagRole": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (write-data): principal tags feed aws:PrincipalTag conditions, so they change who can access what",
  },
  "iam:UntagUser": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (write-data): principal tags feed aws:PrincipalTag conditions, so they change who can access what",
  },
  // IoT: iam-data rates this read of a connected MQTT client Write.
  "iot:GetConnection": {
    capabilities: ["read-config"],
    reason: "reads a client's connection details; AWS's ReadOnlyAccess grants it (iot:Get*)",
  },
  // MSK: a Kafka topic holds its records (the word "topic" names no store in other analytics
  // services: a QuickSight topic is a Q&A configuration).
  "kafka:DeleteTopic": {
    capabilities: ["administer-resource", "delete-data"],
    reason: "deleting a Kafka topic deletes the records it holds",
  },
  "kafka-cluster:DeleteTopic": {
    capabilities: ["administer-resource", "delete-data"],
    reason: "deleting a Kafka topic deletes the records it holds",
  },
  // KMS
  "kms:DeleteCustomKeyStore": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (delete-data): a key store can be deleted only once it holds no KMS keys, so no data is lost",
  },
  // Managed Blockchain: raw JSON-RPC requests to an Ethereum node (apigateway:GET… are control plane).
  "managedblockchain:GET": {
    capabilities: ["use-resource"],
    reason: "sends HTTP GET requests to an Ethereum node, like its Invoke (use-resource)",
  },
  "managedblockchain:POST": {
    capabilities: ["use-resource"],
    reason: "sends HTTP POST requests to an Ethereum node, like its Invoke (use-resource)",
  },
  // RDS
  "rds:CrossRegionCommunication": {
    capabilities: ["read-data", "write-data"],
    reason:
      "as k9: lets RDS read and write the database's data across regions for cross-region replicas",
  },
  "rds:DeleteOptionGroup": {
    capabilities: ["administer-resource"],
    reason: "differs from k9 (delete-data): an option group holds engine settings, not data",
  },
  // S3
  "s3:PutBucketTagging": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9 (also write-data): bucket tags are resource metadata, as k9's own KMS, DynamoDB and RDS tagging",
  },
  "s3:GetStorageLensDashboard": {
    capabilities: ["read-data"],
    reason: "as k9 (2021 map): storage metrics about the account's data, like IAM's usage reports",
  },
  "s3:UpdateJobPriority": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9's 2021 map (write-data): reorders a Batch Operations job without touching objects",
  },
  "s3:UpdateJobStatus": {
    capabilities: ["administer-resource"],
    reason:
      "differs from k9's 2021 map (write-data): confirms or cancels a job; the job's own operation is authorised separately",
  },
  "s3:GetDataAccess": {
    capabilities: ["read-data"],
    reason: "S3 Access Grants vends credentials to the granted objects",
  },
  // SimpleDB stores items as attributes, so the attribute verbs are its data plane.
  "sdb:BatchDeleteAttributes": {
    capabilities: ["delete-data"],
    reason: "deletes items' attributes: SimpleDB's data",
  },
  "sdb:BatchPutAttributes": {
    capabilities: ["write-data"],
    reason: "writes items' attributes: SimpleDB's data",
  },
  "sdb:DeleteAttributes": {
    capabilities: ["delete-data"],
    reason: "deletes an item's attributes: SimpleDB's data",
  },
  "sdb:GetAttributes": {
    capabilities: ["read-data"],
    reason: "reads an item's attributes: SimpleDB's data",
  },
  "sdb:PutAttributes": {
    capabilities: ["write-data"],
    reason: "writes an item's attributes: SimpleDB's data",
  },
  // Redshift
  "redshift:ViewQueriesInConsole": {
    capabilities: ["use-resource"],
    reason:
      "AWS documents it as terminating running queries and loads in the console, as CancelQuery (use-resource)",
  },
  // SQS, SSM
  "sqs:ChangeMessageVisibility": {
    capabilities: ["write-data"],
    reason: "a consumer's write to the message's state, not a queue setting",
  },
  "ssm:GetParameterHistory": {
    capabilities: ["read-data"],
    reason: "returns every past value of the parameter, SecureStrings included",
  },
  // STS
  "sts:DecodeAuthorizationMessage": {
    capabilities: ["read-config"],
    reason:
      "differs from k9 (write-data): it only reveals why a request was denied, which is policy metadata",
  },
  "sts:GetAccessKeyInfo": {
    capabilities: ["read-data"],
    reason: "as k9: reveals which account owns an access key",
  },
  "sts:GetCallerIdentity": {
    capabilities: ["read-data"],
    reason: "as k9: returns the caller's own account, user and ARN",
  },
};

const byLowerName = new Map(
  Object.entries(AWS_OVERRIDES).map(([action, o]) => [action.toLowerCase(), o] as const),
);

export function findAwsOverride(action: string): AwsOverride | undefined {
  return byLowerName.get(action.toLowerCase());
}
