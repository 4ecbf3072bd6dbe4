import { type AnyColumn, and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { customerAccounts, monitoredAccounts } from "./schema.ts";

/** An AWS auditor role as an account's configuration names it. */
export interface AuditorRole {
  roleArn: string;
  externalId: string;
}

/** The account row being written: a partner customer's or a direct customer's. */
export type AuditorRoleWriter =
  | { partnerId: string; partnerCustomerId: string; accountId: string }
  | { customerId: string; accountId: string };

/** Any fixed number: the first key of the advisory locks on auditor roles. */
const AUDITOR_ROLE_LOCK_CLASS = 4_842_772;

/** The AWS role of an `auditorAuthConfig`; undefined for Azure and `cvs`. */
export function auditorRoleOf(config: unknown): AuditorRole | undefined {
  const { roleArn, externalId } = (config ?? {}) as Partial<Record<string, unknown>>;
  return typeof roleArn === "string" && typeof externalId === "string"
    ? { roleArn, externalId }
    : undefined;
}

/**
 * The configuration in `column` names `role`: the ARN compared case-insensitively (IAM role
 * names are unique regardless of case), the external ID exactly. Uses the expression indexes.
 */
export const namesAuditorRole = (column: AnyColumn, role: AuditorRole): SQL =>
  and(
    sql`lower(${column}->>'roleArn') = lower(${role.roleArn})`,
    sql`(${column}->>'externalId') = ${role.externalId}`,
  ) as SQL;

/** Serialises, until the transaction ends, every write that configures the same role. */
async function lockAuditorRole(tx: Executor, role: AuditorRole): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${AUDITOR_ROLE_LOCK_CLASS}, hashtext(lower(${role.roleArn}) || '|' || ${role.externalId}))`,
  );
}

async function any(query: Promise<unknown[]>): Promise<boolean> {
  return (await query).length > 0;
}

/** Whether the row being written names `role` already (a duplicate from before the rule). */
function heldByRow(tx: Executor, role: AuditorRole, writer: AuditorRoleWriter) {
  if ("partnerId" in writer)
    return any(
      tx
        .select({ accountId: monitoredAccounts.accountId })
        .from(monitoredAccounts)
        .where(
          and(
            eq(monitoredAccounts.partnerId, writer.partnerId),
            eq(monitoredAccounts.partnerCustomerId, writer.partnerCustomerId),
            eq(monitoredAccounts.accountId, writer.accountId),
            namesAuditorRole(monitoredAccounts.auditorAuthConfig, role),
          ),
        ),
    );
  return any(
    tx
      .select({ accountId: customerAccounts.accountId })
      .from(customerAccounts)
      .where(
        and(
          eq(customerAccounts.customerId, writer.customerId),
          eq(customerAccounts.accountId, writer.accountId),
          namesAuditorRole(customerAccounts.auditorAuthConfig, role),
        ),
      ),
  );
}

/**
 * Whether another owner (another partner, or a direct customer other than the writer) configures
 * `role`. Call it inside the write's transaction: it first locks the role until the end, so that
 * two owners writing it at once cannot both pass. A row that holds it already passes.
 */
export async function auditorRoleTakenByOthers(
  tx: Executor,
  role: AuditorRole,
  writer: AuditorRoleWriter,
): Promise<boolean> {
  await lockAuditorRole(tx, role);
  if (await heldByRow(tx, role, writer)) return false;
  const partner = "partnerId" in writer ? writer.partnerId : undefined;
  const customer = "customerId" in writer ? writer.customerId : undefined;
  return (
    (await any(
      tx
        .select({ accountId: monitoredAccounts.accountId })
        .from(monitoredAccounts)
        .where(
          and(
            namesAuditorRole(monitoredAccounts.auditorAuthConfig, role),
            partner ? ne(monitoredAccounts.partnerId, partner) : undefined,
          ),
        )
        .limit(1),
    )) ||
    (await any(
      tx
        .select({ accountId: customerAccounts.accountId })
        .from(customerAccounts)
        .where(
          and(
            namesAuditorRole(customerAccounts.auditorAuthConfig, role),
            customer ? ne(customerAccounts.customerId, customer) : undefined,
          ),
        )
        .limit(1),
    ))
  );
}

/** A role configured, with the same external ID, by more than one owner (from before the rule). */
export interface SharedAuditorRole {
  roleArn: string;
  /** Partner IDs and direct customer IDs, sorted. */
  owners: string[];
}

/** Every role that several owners configure with the same external ID (never that ID itself). */
export async function listSharedAuditorRoles(db: Executor): Promise<SharedAuditorRole[]> {
  const rows = await db.execute<{ role_arn: string; owners: string[] }>(sql`
    with roles as (
      select ${monitoredAccounts.auditorAuthConfig} as config, ${monitoredAccounts.partnerId} as owner
      from ${monitoredAccounts}
      union all
      select ${customerAccounts.auditorAuthConfig}, ${customerAccounts.customerId}
      from ${customerAccounts}
    )
    select min(config->>'roleArn') as role_arn, jsonb_agg(distinct owner order by owner) as owners
    from roles
    where config ? 'roleArn' and config ? 'externalId'
    group by lower(config->>'roleArn'), config->>'externalId'
    having count(distinct owner) > 1
    order by role_arn`);
  return [...rows].map((row) => ({ roleArn: row.role_arn, owners: row.owners }));
}
