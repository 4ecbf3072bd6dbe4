import { and, eq } from "drizzle-orm";
import { type AlertOwner, listAlertDestinations } from "./alert-destinations.ts";
import type { Executor } from "./client.ts";
import { customerAccounts, deliveryVerifications, monitoredAccounts } from "./schema.ts";

/**
 * The states the audit trail compares before and after a change, one reader per resource.
 * Secret fields keep their names (`externalId`, `token`, `secret…`): the trail records only
 * that they changed.
 */

/** A partner customer's monitored account: its provider and auditor settings. */
export async function monitoredAccountState(
  db: Executor,
  key: { partnerId: string; partnerCustomerId: string; accountId: string },
) {
  const [row] = await db
    .select({
      provider: monitoredAccounts.provider,
      auditorAuthMethod: monitoredAccounts.auditorAuthMethod,
      auditorAuthConfig: monitoredAccounts.auditorAuthConfig,
    })
    .from(monitoredAccounts)
    .where(
      and(
        eq(monitoredAccounts.partnerId, key.partnerId),
        eq(monitoredAccounts.partnerCustomerId, key.partnerCustomerId),
        eq(monitoredAccounts.accountId, key.accountId),
      ),
    );
  return row;
}

/** A direct customer's account: its provider and auditor settings. */
export async function customerAccountState(
  db: Executor,
  key: { customerId: string; accountId: string },
) {
  const [row] = await db
    .select({
      provider: customerAccounts.provider,
      auditorAuthMethod: customerAccounts.auditorAuthMethod,
      auditorAuthConfig: customerAccounts.auditorAuthConfig,
    })
    .from(customerAccounts)
    .where(
      and(
        eq(customerAccounts.customerId, key.customerId),
        eq(customerAccounts.accountId, key.accountId),
      ),
    );
  return row;
}

/** An owner's alert destinations by name; their sealed secrets only as a marker of change. */
export async function alertDestinationsState(db: Executor, owner: AlertOwner) {
  const rows = await listAlertDestinations(db, owner);
  return Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        destinationId: row.destinationId,
        kind: row.kind,
        config: row.config,
        alertOn: row.alertOn,
        secret: row.secretEnvelope ? row.updatedAt.toISOString() : null,
      },
    ]),
  );
}

/** The ownership proof of an owner's inbox bucket: issued token, and whether it is proven. */
export async function deliveryProofState(db: Executor, ownerId: string) {
  const [row] = await db
    .select()
    .from(deliveryVerifications)
    .where(eq(deliveryVerifications.ownerId, ownerId));
  if (!row) return undefined;
  return {
    bucketName: row.bucketName,
    expectedBucketOwner: row.expectedBucketOwner,
    token: row.token,
    proven: row.provenAt !== null,
  };
}
