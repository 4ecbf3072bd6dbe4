/**
 * Documented exceptions to the managed-policy checks (scripts/managed-policies.ts), keyed by check
 * id then action (canonical case): actions an AWS read-only or view-only policy grants whose
 * capability is nevertheless right, each with a one-line reason.
 */
export const AWS_MANAGED_POLICY_EXCEPTIONS: Readonly<
  Record<string, Readonly<Record<string, string>>>
> = {
  "view-only": {
    "cloudwatch:GetInsightRuleReport":
      "granted only by the wildcard cloudwatch:Get*, never named by AWS: top contributors are values taken from log events (client IPs, request paths)",
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
  "security-audit": {},
};
