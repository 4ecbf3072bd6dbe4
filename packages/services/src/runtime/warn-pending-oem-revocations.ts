import { type Executor, listOemRevocationsPending } from "@sightline/db";
import { oemIntegrationPath } from "@sightline/domain";
import type { Logger } from "@sightline/logging";

/**
 * At every start, for the operator: each partner whose own key had made it an OEM integration,
 * a flag the upgrade (migration 0003) cleared, and each of its `cvs` accounts, whose analyses
 * are refused meanwhile. The lines stop once the operator grants the partner. Returns how many.
 */
export async function warnPendingOemRevocations(db: Executor, logger: Logger): Promise<number> {
  const pending = await listOemRevocationsPending(db);
  for (const { partnerId, cvsAccounts, revokedAt } of pending) {
    const regrant = `PUT ${oemIntegrationPath(partnerId)} with {"oemIntegrationEnabled":true}`;
    logger.warn(
      { partnerId, revokedAt: revokedAt.toISOString(), cvsAccounts: cvsAccounts.length },
      `Partner ${partnerId} had made itself an OEM integration with its own key (configs.oemIntegrationEnabled); the upgrade cleared that flag, because only the operator grants it now. If the partner is one, the operator grants it: ${regrant}`,
    );
    for (const account of cvsAccounts)
      logger.warn(
        { partnerId, account },
        `Account ${account} of partner ${partnerId} uses cvs (credential vending), which its partner's own OEM flag had opened; the upgrade cleared that flag, so its analyses are refused until the operator grants the partner: ${regrant}`,
      );
  }
  return pending.length;
}
