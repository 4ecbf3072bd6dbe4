import type { AlertAttempt } from "@sightline/domain";
import { and, asc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { namesAuditorRole } from "./auditor-roles.ts";
import type { Executor } from "./client.ts";
import {
  alertAttempts,
  alertDestinations,
  customerAccounts,
  directCustomers,
  monitoredAccounts,
  partners,
} from "./schema.ts";

/** Whose alert destinations: a partner's (for all its customers) or a direct customer's. */
export type AlertOwner =
  | { kind: "partner"; partnerId: string }
  | { kind: "direct"; customerId: string };

export type AlertDestinationKind = "webhook" | "email" | "securityhub";

/** A sealed secret as stored: each member base64. */
export type SealedSecretColumns = Record<string, string>;

export interface AlertDestinationRow {
  destinationId: string;
  owner: AlertOwner;
  name: string;
  kind: AlertDestinationKind;
  config: Record<string, unknown>;
  secretEnvelope?: SealedSecretColumns;
  alertOn: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** What is written for a destination (its ID is chosen by the caller). */
export interface AlertDestinationWrite {
  destinationId: string;
  name: string;
  kind: AlertDestinationKind;
  config: Record<string, unknown>;
  alertOn: string[];
  /** Its place in the owner's list. */
  position: number;
  /** Absent: the stored secret stays (an update) or there is none (a new destination). */
  secretEnvelope?: SealedSecretColumns;
}

type Row = typeof alertDestinations.$inferSelect;

const toDestination = (row: Row): AlertDestinationRow => ({
  destinationId: row.destinationId,
  owner:
    row.ownerKind === "partner"
      ? { kind: "partner", partnerId: row.partnerId ?? "" }
      : { kind: "direct", customerId: row.customerId ?? "" },
  name: row.name,
  kind: row.kind as AlertDestinationKind,
  config: row.config,
  ...(row.secretEnvelope ? { secretEnvelope: row.secretEnvelope } : {}),
  alertOn: row.alertOn,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const alertOwnerId = (owner: AlertOwner): string =>
  owner.kind === "partner" ? owner.partnerId : owner.customerId;

const ownedBy = (owner: AlertOwner) =>
  owner.kind === "partner"
    ? eq(alertDestinations.partnerId, owner.partnerId)
    : eq(alertDestinations.customerId, owner.customerId);

/** Any fixed numbers: the first key of the advisory locks on owners' lists and on roles. */
const OWNER_LOCK_CLASS = 4_842_773;
const ROLE_LOCK_CLASS = 4_842_772;
const ROLE_ARN_LOCK_CLASS = 4_842_775;

/** Serialises, until the transaction ends, every replacement of the owner's destinations. */
export async function lockAlertOwner(tx: Executor, owner: AlertOwner): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${OWNER_LOCK_CLASS}, hashtext(${alertOwnerId(owner)}))`,
  );
}

/** Whether the partner is configured, or the direct customer registered. */
export async function alertOwnerExists(db: Executor, owner: AlertOwner): Promise<boolean> {
  const rows =
    owner.kind === "partner"
      ? await db
          .select({ id: partners.partnerId })
          .from(partners)
          .where(eq(partners.partnerId, owner.partnerId))
      : await db
          .select({ id: directCustomers.customerId })
          .from(directCustomers)
          .where(eq(directCustomers.customerId, owner.customerId));
  return rows.length > 0;
}

/** The owner's destinations, in the order its last PUT listed them. */
export async function listAlertDestinations(
  db: Executor,
  owner: AlertOwner,
): Promise<AlertDestinationRow[]> {
  const rows = await db
    .select()
    .from(alertDestinations)
    .where(ownedBy(owner))
    .orderBy(asc(alertDestinations.position), asc(alertDestinations.createdAt));
  return rows.map(toDestination);
}

export async function getAlertDestination(
  db: Executor,
  destinationId: string,
): Promise<AlertDestinationRow | undefined> {
  const [row] = await db
    .select()
    .from(alertDestinations)
    .where(eq(alertDestinations.destinationId, destinationId));
  return row ? toDestination(row) : undefined;
}

/**
 * Makes the owner's list exactly `keep` (updated in place, secrets kept unless given) and
 * `create` (new rows); any other destination of the owner is deleted with its history. Call it
 * inside a transaction that holds `lockAlertOwner`.
 */
export async function writeAlertDestinations(
  tx: Executor,
  owner: AlertOwner,
  writes: { keep: AlertDestinationWrite[]; create: AlertDestinationWrite[] },
): Promise<void> {
  const kept = writes.keep.map((w) => w.destinationId);
  await tx
    .delete(alertDestinations)
    .where(
      and(
        ownedBy(owner),
        kept.length > 0 ? notInArray(alertDestinations.destinationId, kept) : undefined,
      ),
    );
  for (const write of writes.keep)
    await tx
      .update(alertDestinations)
      .set({
        name: write.name,
        config: write.config,
        alertOn: write.alertOn,
        position: write.position,
        ...(write.secretEnvelope ? { secretEnvelope: write.secretEnvelope } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(ownedBy(owner), eq(alertDestinations.destinationId, write.destinationId)));
  if (writes.create.length === 0) return;
  await tx.insert(alertDestinations).values(
    writes.create.map((write) => ({
      destinationId: write.destinationId,
      ownerKind: owner.kind,
      partnerId: owner.kind === "partner" ? owner.partnerId : null,
      customerId: owner.kind === "direct" ? owner.customerId : null,
      name: write.name,
      kind: write.kind,
      config: write.config,
      alertOn: write.alertOn,
      position: write.position,
      secretEnvelope: write.secretEnvelope ?? null,
    })),
  );
}

/** Replaces a webhook destination's sealed secret; false if the owner has no such webhook. */
export async function setAlertDestinationSecret(
  db: Executor,
  owner: AlertOwner,
  destinationId: string,
  secretEnvelope: SealedSecretColumns,
): Promise<boolean> {
  const rows = await db
    .update(alertDestinations)
    .set({ secretEnvelope, updatedAt: sql`now()` })
    .where(
      and(
        ownedBy(owner),
        eq(alertDestinations.destinationId, destinationId),
        eq(alertDestinations.kind, "webhook"),
      ),
    )
    .returning({ id: alertDestinations.destinationId });
  return rows.length > 0;
}

/**
 * Whether another owner names this Security Hub role: as an alert destination (whatever its
 * external ID), or with this external ID as an auditor role. Locks the role until the
 * transaction ends, so that two owners writing it at once cannot both pass.
 */
export async function securityHubRoleTakenByOthers(
  tx: Executor,
  role: { roleArn: string; externalId: string },
  owner: AlertOwner,
): Promise<boolean> {
  // The pair's lock is the auditor roles' own, so that those writes wait for this one too.
  await tx.execute(
    sql`select pg_advisory_xact_lock(${ROLE_ARN_LOCK_CLASS}, hashtext(lower(${role.roleArn})))`,
  );
  await tx.execute(
    sql`select pg_advisory_xact_lock(${ROLE_LOCK_CLASS}, hashtext(lower(${role.roleArn}) || '|' || ${role.externalId}))`,
  );
  const destinations = await tx
    .select({ id: alertDestinations.destinationId })
    .from(alertDestinations)
    .where(
      and(
        eq(alertDestinations.kind, "securityhub"),
        sql`lower(${alertDestinations.config}->>'roleArn') = lower(${role.roleArn})`,
        sql`coalesce(${alertDestinations.partnerId}, ${alertDestinations.customerId}) <> ${alertOwnerId(owner)}`,
      ),
    )
    .limit(1);
  if (destinations.length > 0) return true;
  const partnerAccounts = await tx
    .select({ id: monitoredAccounts.accountId })
    .from(monitoredAccounts)
    .where(
      and(
        namesAuditorRole(monitoredAccounts.auditorAuthConfig, role),
        owner.kind === "partner" ? ne(monitoredAccounts.partnerId, owner.partnerId) : undefined,
      ),
    )
    .limit(1);
  if (partnerAccounts.length > 0) return true;
  const customerRows = await tx
    .select({ id: customerAccounts.accountId })
    .from(customerAccounts)
    .where(
      and(
        namesAuditorRole(customerAccounts.auditorAuthConfig, role),
        owner.kind === "direct" ? ne(customerAccounts.customerId, owner.customerId) : undefined,
      ),
    )
    .limit(1);
  return customerRows.length > 0;
}

/** The latest attempts of each destination, newest first, at most `limit` each. */
export async function recentAlertAttempts(
  db: Executor,
  destinationIds: readonly string[],
  limit: number,
): Promise<Map<string, AlertAttempt[]>> {
  const byDestination = new Map<string, AlertAttempt[]>();
  if (destinationIds.length === 0) return byDestination;
  const ranked = db
    .select({
      destinationId: alertAttempts.destinationId,
      alertId: alertAttempts.alertId,
      at: alertAttempts.at,
      outcome: alertAttempts.outcome,
      status: alertAttempts.status,
      error: alertAttempts.error,
      rank: sql<number>`row_number() over (partition by ${alertAttempts.destinationId} order by ${alertAttempts.at} desc, ${alertAttempts.id} desc)`.as(
        "rank",
      ),
    })
    .from(alertAttempts)
    .where(inArray(alertAttempts.destinationId, [...destinationIds]))
    .as("ranked");
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${limit}`)
    .orderBy(asc(ranked.destinationId), asc(ranked.rank));
  for (const row of rows) {
    const list = byDestination.get(row.destinationId) ?? [];
    list.push({
      alertId: row.alertId,
      at: row.at.toISOString(),
      outcome: row.outcome as AlertAttempt["outcome"],
      ...(row.status === null ? {} : { status: row.status }),
      ...(row.error === null ? {} : { error: row.error }),
    });
    byDestination.set(row.destinationId, list);
  }
  return byDestination;
}
