import type {
  BucketMetadata,
  CredentialReportRow,
  KeyMetadata,
  RoleLastUsed,
} from "@sightline/domain";
import { byKindAndResource } from "../collect/collect-account.ts";
import type { CollectedAccount, CollectionWarning } from "../collect/collection-types.ts";
import type { AuthorizationDetailsJson } from "../collect/read-authorization-details.ts";
import type { EventReads } from "./event-reads.ts";
import { patchCredentialRows } from "./patch-credential-rows.ts";
import { patchDetails } from "./patch-details.ts";

/**
 * The previous collection with what the events' targets read replaced, added or removed: the
 * GAAD entries (in GAAD's shape, so that `createAccountModel` reads them as it would a full
 * collection's), resource policies, buckets, keys, the organisation, and the metadata (a
 * user's credential report row, bucket and key metadata, role last use). Pure.
 */
export function patchCollection(previous: CollectedAccount, reads: EventReads): CollectedAccount {
  const { snapshot, metadata } = previous;
  const details = patchDetails(snapshot.authorizationDetails as AuthorizationDetailsJson, reads);
  const resourcePolicies: Record<string, unknown> = { ...snapshot.resourcePolicies };
  const buckets = [...(snapshot.buckets ?? [])];
  const bucketMetadata: Record<string, BucketMetadata> = { ...metadata.buckets };
  for (const [arn, read] of Object.entries(reads.buckets)) {
    delete resourcePolicies[arn];
    delete bucketMetadata[arn];
    const index = buckets.indexOf(arn);
    if (read === null) {
      if (index >= 0) buckets.splice(index, 1);
      continue;
    }
    if (index < 0) buckets.push(arn);
    bucketMetadata[arn] = read.metadata;
    if (read.policy !== undefined) resourcePolicies[arn] = read.policy;
  }
  const awsManagedKeys = new Set(snapshot.awsManagedKeys ?? []);
  const unreadable = new Set(snapshot.unreadableKeyPolicies ?? []);
  const keyMetadata: Record<string, KeyMetadata> = { ...metadata.keys };
  const regions = new Set(metadata.regions);
  for (const [arn, read] of Object.entries(reads.keys)) {
    // The full collection reads the keys of its regions alone.
    if (!regions.has(arn.split(":")[3] ?? "")) continue;
    delete resourcePolicies[arn];
    delete keyMetadata[arn];
    awsManagedKeys.delete(arn);
    unreadable.delete(arn);
    if (read === null) continue;
    if (read.awsManaged) {
      awsManagedKeys.add(arn);
      continue;
    }
    keyMetadata[arn] = read.metadata;
    if (read.policy !== undefined) resourcePolicies[arn] = read.policy;
    else if (read.policyUnread) unreadable.add(arn);
  }
  const { organization: previousOrganization, ...rest } = snapshot;
  const organization = reads.organization ? reads.organization.value : previousOrganization;
  const credentialReport = metadata.credentialReport && {
    ...metadata.credentialReport,
    rows: patchCredentialRows(
      metadata.credentialReport.rows as CredentialReportRow[],
      (snapshot.authorizationDetails as AuthorizationDetailsJson).UserDetailList,
      reads,
    ),
  };
  const { awsManagedKeys: _, unreadableKeyPolicies: __, ...base } = rest;
  return {
    snapshot: {
      ...base,
      authorizationDetails: details,
      resourcePolicies,
      buckets,
      ...(awsManagedKeys.size > 0 ? { awsManagedKeys: [...awsManagedKeys].sort() } : {}),
      ...(unreadable.size > 0 ? { unreadableKeyPolicies: [...unreadable].sort() } : {}),
      ...(organization ? { organization } : {}),
    },
    metadata: {
      ...metadata,
      startedAt: reads.startedAt,
      finishedAt: reads.finishedAt,
      roleLastUsed: patchRoleLastUsed(metadata.roleLastUsed, reads),
      ...(credentialReport ? { credentialReport } : {}),
      buckets: bucketMetadata,
      keys: keyMetadata,
    },
    warnings: patchWarnings(previous.warnings, reads),
  };
}

function patchRoleLastUsed(
  previous: Readonly<Record<string, RoleLastUsed>>,
  reads: EventReads,
): Record<string, RoleLastUsed> {
  const lastUsed: Record<string, RoleLastUsed> = { ...previous };
  for (const [name, read] of Object.entries(reads.roles)) {
    const arn = `arn:${reads.partition}:iam::${reads.accountId}:role/${name}`;
    delete lastUsed[String(read?.Arn ?? arn)];
    const used = read?.RoleLastUsed as { LastUsedDate?: string; Region?: string } | undefined;
    if (read && typeof read.Arn === "string" && used?.LastUsedDate) {
      lastUsed[read.Arn] = {
        lastUsedDate: used.LastUsedDate,
        ...(used.Region ? { region: used.Region } : {}),
      };
    }
  }
  return lastUsed;
}

/** Warnings about what was read again give way to what the reads said now. */
function patchWarnings(
  previous: readonly CollectionWarning[],
  reads: EventReads,
): CollectionWarning[] {
  const reread = new Set([
    ...Object.keys(reads.buckets),
    ...Object.keys(reads.keys),
    ...Object.keys(reads.policies),
  ]);
  const kept = previous.filter(
    (warning) =>
      !(warning.resourceArn && reread.has(warning.resourceArn)) &&
      !(reads.organization && warning.kind === "scps-not-applied"),
  );
  const seen = new Set(kept.map((warning) => JSON.stringify(warning)));
  const added = reads.warnings.filter((warning) => !seen.has(JSON.stringify(warning)));
  return [...kept, ...added].sort(byKindAndResource);
}
