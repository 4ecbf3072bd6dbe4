import type { CollectionMetadata, CredentialReportRow } from "@sightline/domain";
import type { AccountAnalysis, ResourceRow } from "@sightline/engine";
import type {
  AccessKeyCredential,
  PasswordCredential,
  PrincipalMetadata,
  ReportInput,
  ResourceMetadata,
  UserCredentials,
} from "../rows/report-metadata.ts";

/**
 * What an AWS account's reports show beside its analysis: a collection's metadata, or what
 * `sightline analyze` finds of it in its files (no credential report, buckets without tags).
 */
export type AccountReportMetadata = Pick<
  CollectionMetadata,
  "accountId" | "roleLastUsed" | "credentialReport" | "buckets" | "keys"
>;

const date = (iso: string | undefined) => (iso ? new Date(iso) : undefined);

function accessKey(key: CredentialReportRow["accessKeys"][0]): AccessKeyCredential | undefined {
  // A key that was never created has no rotation date; an inactive one still has one.
  if (!key.active && !key.lastRotated) return undefined;
  const lastUsed = date(key.lastUsedDate);
  const lastRotated = date(key.lastRotated);
  return {
    active: key.active,
    ...(lastUsed ? { lastUsed } : {}),
    ...(lastRotated ? { lastRotated } : {}),
  };
}

/**
 * An enabled password is `Active`. A disabled one that leaves a trace (IAM keeps
 * `password_last_used` after the login profile is deleted) is `Inactive`, which k9's dashboard
 * counts; a user who never had one has none. The root user's password is `not_supported`: none.
 */
function password(row: CredentialReportRow): PasswordCredential | undefined {
  const lastUsed = date(row.passwordLastUsed);
  const lastRotated = date(row.passwordLastChanged);
  if (row.passwordEnabled === undefined) return undefined;
  if (!row.passwordEnabled && !lastUsed && !lastRotated) return undefined;
  return {
    active: row.passwordEnabled,
    ...(lastUsed ? { lastUsed } : {}),
    ...(lastRotated ? { lastRotated } : {}),
  };
}

function credentialsOf(row: CredentialReportRow): UserCredentials {
  const [first, second] = row.accessKeys;
  const key1 = accessKey(first);
  const key2 = accessKey(second);
  const pass = password(row);
  return {
    ...(pass ? { password: pass } : {}),
    ...(key1 ? { accessKey1: key1 } : {}),
    ...(key2 ? { accessKey2: key2 } : {}),
  };
}

/** What the reports add to the engine's rows: last use, credentials, resource names and tags. */
export function reportInputOf(
  analysis: AccountAnalysis,
  metadata: AccountReportMetadata,
  analysisTime: Date,
  iamAdminPaths: ReadonlyMap<string, readonly string[]>,
): ReportInput {
  const principalMetadata = new Map<string, PrincipalMetadata>();
  const add = (arn: string, more: PrincipalMetadata) =>
    principalMetadata.set(arn, { ...principalMetadata.get(arn), ...more });
  for (const [arn, used] of Object.entries(metadata.roleLastUsed)) {
    const lastUsed = date(used.lastUsedDate);
    if (lastUsed) add(arn, { lastUsed });
  }
  for (const row of metadata.credentialReport?.rows ?? [])
    add(row.arn, { credentials: credentialsOf(row) });
  for (const [arn, iamAdminPath] of iamAdminPaths) add(arn, { iamAdminPath });
  const resourceMetadata = new Map<string, ResourceMetadata>();
  for (const [arn, bucket] of Object.entries(metadata.buckets))
    resourceMetadata.set(arn, { name: bucket.name, tags: bucket.tags });
  for (const [arn, key] of Object.entries(metadata.keys))
    resourceMetadata.set(arn, { name: key.aliases[0] ?? key.keyId, tags: key.tags });
  return { analysisTime, principals: analysis.principals, principalMetadata, resourceMetadata };
}

/**
 * The resources report: every resource the engine reports (those with a policy, and the
 * account's buckets without one), then every collected bucket or key it does not know (a
 * bucket listed by no account's snapshot, a key whose policy could not be read), so that the
 * report lists all of them, as k9's does.
 */
export function* allResources(
  analysis: AccountAnalysis,
  metadata: AccountReportMetadata,
): Generator<ResourceRow> {
  const seen = new Set<string>();
  for (const row of analysis.resources) {
    seen.add(row.resourceArn);
    yield row;
  }
  const base = { accountId: metadata.accountId, allowsAnyPrincipal: false };
  for (const arn of Object.keys(metadata.buckets))
    if (!seen.has(arn))
      yield { ...base, resourceArn: arn, resourceType: "S3Bucket", service: "S3" };
  for (const arn of Object.keys(metadata.keys))
    if (!seen.has(arn)) yield { ...base, resourceArn: arn, resourceType: "KMSKey", service: "KMS" };
}
