/**
 * Documented exceptions to the managed-policy checks (scripts/managed-policies.ts), keyed by check
 * id then action (canonical case): actions an AWS read-only or view-only policy grants whose
 * capability is nevertheless right, each with a one-line reason.
 */
const K9 = (why: string) => `as k9 (read-data): ${why}`;

export const AWS_MANAGED_POLICY_EXCEPTIONS: Readonly<
  Record<string, Readonly<Record<string, string>>>
> = {
  "view-only": {
    "cloudwatch:GetRecords":
      "granted only by the wildcard cloudwatch:Get*, never named by AWS: fetches log events and traces",
    "cloudwatch:GetServiceData":
      "granted only by the wildcard cloudwatch:Get*, never named by AWS: returns the service's collected telemetry",
    "cloudwatch:GetSpaceCredentials":
      "granted only by the wildcard cloudwatch:Get*, never named by AWS: returns credentials",
    "cloudwatch:GetTelemetryQueryResults":
      "granted only by the wildcard cloudwatch:Get*, never named by AWS: returns query results over logs and traces",
    "iam:GetAccountSummary":
      "as k9 (read-data): reports root MFA and access-key presence alongside entity counts",
    "s3:ListBucket": "as k9 (read-data): object keys reveal the bucket's contents",
  },
  "read-only": {
    "sts:TagGetWebIdentityToken":
      "as sts:TagSession (write-data, as k9): the tags ride in the token the caller asks for; AnthropicReadOnlyAccess grants it for its own token",
  },
  // SecurityAudit reads for auditors; k9 counts IAM's activity reports and simulations as data.
  "security-audit": {
    "iam:GenerateCredentialReport": K9(
      "the credential report lists every user's passwords, keys and MFA state and use",
    ),
    "iam:GenerateServiceLastAccessedDetails": K9("last-accessed data is the account's activity"),
    "iam:GetAccessKeyLastUsed": K9("last-used data is the account's activity"),
    "iam:GetAccountSummary": K9("reports root MFA and access-key presence alongside entity counts"),
    "iam:GetCredentialReport": K9(
      "the credential report lists every user's passwords, keys and MFA state and use",
    ),
    "iam:GetOrganizationsAccessReport": K9("last-accessed data is the organization's activity"),
    "iam:GetServiceLastAccessedDetails": K9("last-accessed data is the account's activity"),
    "iam:GetServiceLastAccessedDetailsWithEntities": K9(
      "last-accessed data is the account's activity",
    ),
    "iam:GetServiceLinkedRoleDeletionStatus": K9(
      "the failure reason lists the resources that use the role",
    ),
    "iam:SimulateCustomPolicy": K9("a simulation reveals effective access"),
    "iam:SimulatePrincipalPolicy": K9("a simulation reveals effective access"),
    "s3:ListBucket": K9("object keys reveal the bucket's contents"),
    "sts:GetAccessKeyInfo": K9("reveals which account owns an access key"),
    "rds:DownloadDBLogFilePortion":
      "as k9 (read-data): database logs can hold query text and values, though AWS lets auditors read them",
    "s3vectors:GetVectors": "returns stored vectors and their metadata, the bucket's data",
  },
};
