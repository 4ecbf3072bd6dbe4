/** The six parts of an ARN: `arn:partition:service:region:account-id:resource`. */
export interface Arn {
  partition: string;
  service: string;
  region: string;
  /** Empty for services whose ARNs carry none (S3 buckets), `aws` for AWS managed policies. */
  accountId: string;
  /** Everything after the fifth colon, colons included (`role/x`, `key/…`, `log-group:a:*`). */
  resource: string;
}

/** Splits an ARN into its parts; undefined when the text is not `arn:` with six parts. */
export function parseArn(text: string): Arn | undefined {
  if (!text.startsWith("arn:")) return undefined;
  const parts = text.split(":");
  if (parts.length < 6) return undefined;
  const [, partition = "", service = "", region = "", accountId = ""] = parts;
  return { partition, service, region, accountId, resource: parts.slice(5).join(":") };
}

/** The 12-digit account of an ARN, or undefined (S3 buckets, AWS managed policies, non-ARNs). */
export function accountOfArn(text: string): string | undefined {
  const accountId = parseArn(text)?.accountId;
  return accountId && /^\d{12}$/.test(accountId) ? accountId : undefined;
}
