import type { CollectContext } from "./collect-context.ts";
import type {
  CollectAccountInput,
  CollectedAccount,
  CollectionWarning,
  RoleLastUsed,
} from "./collection-types.ts";
import { completeManagedPolicies } from "./complete-managed-policies.ts";
import { createAccountClients } from "./create-account-clients.ts";
import { listEnabledRegions } from "./list-enabled-regions.ts";
import type { AuthorizationDetailsJson } from "./read-authorization-details.ts";
import { readAuthorizationDetails } from "./read-authorization-details.ts";
import { readBuckets } from "./read-buckets.ts";
import { readCredentialReport } from "./read-credential-report.ts";
import { readKeys } from "./read-keys.ts";
import { readOrganization } from "./read-organization.ts";
import { verifyCaller } from "./verify-caller.ts";

const DEFAULT_CONCURRENCY = 8;

/**
 * Reads what the engine needs to analyse one AWS account, and what the reports show beside it.
 * Fails (an `AppError`) when the account cannot be analysed at all: wrong account, GAAD denied,
 * credentials expired, AWS throttling or unavailable after every retry. Anything narrower that
 * cannot be read is a warning.
 */
export async function collectAccount(input: CollectAccountInput): Promise<CollectedAccount> {
  const startedAt = new Date().toISOString();
  const clients = createAccountClients(input.credentials, input.partition, input.clientOptions);
  const ctx: CollectContext = {
    clients,
    accountId: input.accountId,
    partition: input.partition,
    concurrency: input.concurrency ?? DEFAULT_CONCURRENCY,
    warnings: [],
  };
  try {
    const callerArn = await verifyCaller(ctx);
    const details = await readAuthorizationDetails(ctx);
    const [, credentialReport, buckets, organization, regions] = await Promise.all([
      completeManagedPolicies(ctx, details),
      readCredentialReport(ctx, {
        timeoutMs: input.credentialReportTimeoutMs ?? 120_000,
        pollMs: input.credentialReportPollMs ?? 2_000,
      }),
      readBuckets(ctx),
      readOrganization(ctx),
      input.regions ? Promise.resolve([...input.regions]) : listEnabledRegions(ctx),
    ]);
    const keys = await readKeys(ctx, regions);
    return {
      snapshot: {
        authorizationDetails: details,
        accountId: input.accountId,
        partition: input.partition,
        resourcePolicies: { ...buckets.policies, ...keys.policies },
        // The account owns these buckets: an S3 ARN does not say so (engine `buckets`).
        buckets: Object.keys(buckets.buckets),
        // AWS manages these keys: customers cannot change them (engine `awsManagedKeys`).
        ...(keys.awsManagedKeys.length > 0 ? { awsManagedKeys: keys.awsManagedKeys.sort() } : {}),
        // Keys whose policy Sightline was refused: their KMS access is conditional (engine).
        ...(keys.unreadableKeyPolicies.length > 0
          ? { unreadableKeyPolicies: keys.unreadableKeyPolicies.sort() }
          : {}),
        ...(organization ? { organization } : {}),
      },
      metadata: {
        accountId: input.accountId,
        partition: input.partition,
        callerArn,
        regions,
        startedAt,
        finishedAt: new Date().toISOString(),
        roleLastUsed: roleLastUsedOf(details),
        ...(credentialReport ? { credentialReport } : {}),
        buckets: buckets.buckets,
        keys: keys.keys,
      },
      warnings: ctx.warnings.sort(byKindAndResource),
    };
  } finally {
    clients.destroy();
  }
}

function roleLastUsedOf(details: AuthorizationDetailsJson): Record<string, RoleLastUsed> {
  const lastUsed: Record<string, RoleLastUsed> = {};
  for (const role of details.RoleDetailList) {
    const used = role.RoleLastUsed as { LastUsedDate?: string; Region?: string } | undefined;
    if (typeof role.Arn !== "string" || !used?.LastUsedDate) continue;
    lastUsed[role.Arn] = {
      lastUsedDate: used.LastUsedDate,
      ...(used.Region ? { region: used.Region } : {}),
    };
  }
  return lastUsed;
}

/** Steps run side by side; sorting keeps the report the same from run to run (and patches). */
export function byKindAndResource(a: CollectionWarning, b: CollectionWarning): number {
  const key = (w: CollectionWarning) => `${w.kind}\u0000${w.resourceArn ?? ""}\u0000${w.action}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
