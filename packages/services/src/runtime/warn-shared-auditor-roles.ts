import { type Executor, listSharedAuditorRoles } from "@sightline/db";
import type { Logger } from "@sightline/logging";

/**
 * At every start, for the operator: each AWS auditor role that several tenants configure with
 * the same external ID, stored before Sightline refused that. The external ID is never logged.
 * Their re-PUTs stay accepted; each should move to an external ID of its own. Returns how many.
 */
export async function warnSharedAuditorRoles(db: Executor, logger: Logger): Promise<number> {
  const shared = await listSharedAuditorRoles(db);
  for (const { roleArn, owners } of shared)
    logger.warn(
      { roleArn, owners },
      `Auditor role ${roleArn} is configured with the same external ID by ${owners.length} tenants (${owners.join(", ")}): the external ID is what tells tenants apart (AWS's confused-deputy guidance), so each must choose one of its own and require it in the role's trust policy; new configurations of this role and external ID by another tenant are refused`,
    );
  return shared.length;
}
