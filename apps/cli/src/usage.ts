// Kept apart from the commands, which load the engine and the database only when they run, so
// that `--help` and most usage errors answer at once.

export const USAGE = `usage:
  sightline analyze --authorization-details gaad.json [--authorization-details other.json ...]
                    [--resource-policies dir] [--buckets list.json ...] [--organization org.json]
                    [--format csv|jsonl|parquet|xlsx ...] --out dir [--show ARN|name|all ...]
  sightline analyze --azure-role-definitions roles.json --azure-role-assignments assignments.json
                    --subscription <subscription id> [--azure-deny-assignments deny.json]
                    [--azure-groups groups.json] [--azure-principals principals.json]
                    [--azure-resource-groups groups.json] [--azure-resources resources.json]
                    [--management-groups root,...,parent] [--format csv|jsonl|parquet ...] --out dir
  sightline analyze --azure-snapshot subscription.json [--format csv|jsonl|parquet ...] --out dir
  sightline authorize --authorization-details gaad.json [--resource-policies dir]
                    [--buckets list.json ...] [--organization org.json]
                    --principal ARN --action service:Action --resource ARN
                    [--context key=value ...] [--session-name name] [--json]
  sightline paths --authorization-details gaad.json [--authorization-details other.json ...]
                    [--resource-policies dir] [--buckets list.json ...] [--organization org.json]
                    --resource ARN [--resource ARN ...] [--service STS|S3|KMS]
                    [--capability use-resource ...] [--operator OR|AND] [--max-nodes 10] [--json]
  sightline snapshot import --partner P123456 --customer acme-prod-01 --account 123456789012
                    --authorization-details gaad.json [--resource-policies dir]
                    [--organization org.json] [--partition aws]
  sightline audit verify --tenant P123456 [--tenant C12345 ...] | --all
  sightline audit prune [--days 400]

  --resource-policies  a directory of *.json files, each { "<resource ARN>": <policy document>, ... };
                       a file named <account id>.json belongs to that account (S3 ARNs carry none)
  --buckets            a bucket list (repeatable): a JSON list of bucket names or ARNs, or the output
                       of aws s3api list-buckets; <account id>.json belongs to that account, others
                       to the first. An S3 ARN names no account: a bucket neither a bucket policy
                       nor a list places is of unknown owner, and access to it is conditional
                       on ResourceOwner aws:ResourceAccount
  --organization       { "isManagementAccount"?, "serviceControlPolicies"?: [{ "target", "policies" }], ... }
  --format             report formats, repeated or comma-separated (default csv); the reports are
                       principals, resources, principal-access-summaries, resource-access-summaries,
                       and resource-access-paths (in the jsonl and parquet asked for; Parquet when
                       only csv is). An AWS account's CSVs are k9's (its columns and value
                       formats); jsonl and parquet hold every column (granted_by, iam_admin_path,
                       conditional, ...); xlsx (AWS) is k9's resource-access-audit.xlsx workbook
                       of the four reports. The files are those the service writes
  --show               analyze: also print the access of these principals (ARN or name) and
                       resources (ARN), or of all, one line per row with the policies that grant
                       it, e.g. "granted by: AdministratorAccess (managed, arn:…) [#0], inline 'x'
                       [Sid1]"; IAM admins with the IAM actions that make them one
  Azure                an Azure subscription from the files az and Microsoft Graph export (each a JSON
                       list, or an ARM/Graph page { "value": [...] }):
  --azure-role-definitions   az role definition list (built-in and custom roles)
  --azure-role-assignments   az role assignment list --all --include-inherited
  --azure-deny-assignments   az rest --url <subscription>/providers/Microsoft.Authorization/
                             denyAssignments?api-version=2022-04-01
  --azure-groups       groups with their members: [{ "id", "displayName", "members": [...] }]
                       (Graph /groups/{id}/transitiveMembers); nested groups are closed
  --azure-principals   users and service principals (Graph /users, /servicePrincipals): names
                       and types (servicePrincipalType ManagedIdentity = managed identity)
  --azure-resource-groups, --azure-resources   az group list, az resource list: names and tags
  --management-groups  the management groups above the subscription, root first (repeated or
                       comma-separated); without it every management-group assignment given applies
  --azure-snapshot     one file holding the whole AzureSnapshot (what the collector stores)
  --context            request context, e.g. aws:SourceIp=10.0.0.1 (repeat a key for several values)

  paths                who can reach each resource, directly or by assuming roles across the accounts
                       given: one line per entry, "resource ← nodes[0] ← ...", marked [cycle],
                       [truncated] or [conditional], then a line per resource with its type, the
                       number of entries and whether the list is complete; --json prints endpoint
                       12's answer, { "resourceAccessPaths": { "<resource>": { ... } } }
  --service            STS (default; the resource is a role), S3 (a bucket) or KMS (a key)
  --capability         what the principals next to the resource hold, repeated or comma-separated:
                       use-resource (default; with STS, assuming the role), read-data, write-data,
                       delete-data, read-config, administer-resource
  --operator           OR (default): any of the capabilities; AND: all of them
  --max-nodes          the longest path, 1 to 15 nodes (default 10); a longer one is [truncated]
  snapshot import      stores an exported account as the newest snapshot of a partner customer's
                       account, which endpoint 12 answers from, in the service's database:
                       DATABASE_URL, else the embedded Postgres in SIGHTLINE_DATA_DIR (.data) —
                       the running service's, or started for the import
  audit verify         recomputes each tenant's audit chain in DATABASE_URL's database: one JSON
                       line per tenant, { tenant, events, problems, ok }; exit 1 if any fails
  audit prune          deletes audit events older than --days (SIGHTLINE_AUDIT_RETENTION_DAYS,
                       400), recording the pruning in each tenant's chain`;

/** A mistake on the command line: reported with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
