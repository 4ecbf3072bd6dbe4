/**
 * The principal that makes an AWS request being authorized (IAM's "principal making the
 * request"), as far as resource-based policies and context keys care. Not to be confused
 * with the API's `ApiClient` (who calls Sightline's own API).
 */
export interface RequestingPrincipal {
  kind: "user" | "role" | "root" | "service" | "federated" | "external" | "anonymous";
  /** The ARN the request named. */
  arn: string;
  accountId?: string;
  partition?: string;
  /** Users: the user ARN. Roles: the role ARN (without path in the session ARN). */
  identityArn?: string;
  /** Roles: `arn:<p>:sts::<acct>:assumed-role/<name>/<session>` when the session name is known. */
  sessionArn?: string;
  /** IAM unique ID (AIDA…/AROA…) when known. */
  uniqueId?: string;
  /** Users and roles with a permissions boundary (NotPrincipal with Deny always applies to them). */
  hasBoundary?: boolean;
  /** Service principal name (`s3.amazonaws.com`), federated provider, or canonical user ID. */
  service?: string;
  federatedProvider?: string;
  canonicalUser?: string;
}
