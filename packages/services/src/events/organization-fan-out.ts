import {
  type Executor,
  organizationMembers,
  organizationOfAccount,
  recordAccountEvent,
} from "@sightline/db";
import type { ServiceContext } from "../context.ts";
import { enqueueEventStep } from "../queue/event-queue.ts";
import type { StepTarget } from "./step-target.ts";

/** An event of the management account, as recorded for it. */
export interface OrganizationEvent {
  customerId: string;
  /** The management account, whose token posted it. */
  accountId: string;
  provider: string;
  eventId: string;
  eventName: string;
  eventTime: Date;
}

const ORGANIZATION: StepTarget[] = [{ kind: "organization" }];

/**
 * An SCP or RCP event arrives with the organisation's management account's token, but may change
 * what every account of the organisation allows. The same customer's monitored accounts in the
 * organisation (their newest snapshots say which) get the event as theirs, and an event step each,
 * which reads their organisation's policies again (`organization` target): an SCP patches a
 * snapshot like any other target, so no full analysis is needed. Another customer's accounts are
 * never touched, even in the same organisation: its own management account's token brings it
 * the event. Runs in the transaction that records the management account's event. Returns the
 * accounts reached; none when the management account's organisation is not known yet (its
 * snapshot was stored before organisations were kept: its next analysis keeps it).
 */
export async function fanOutOrganizationEvent(
  tx: Executor,
  ctx: ServiceContext,
  event: OrganizationEvent,
  startAfter: Date,
): Promise<string[]> {
  const management = { customerId: event.customerId, accountId: event.accountId };
  const organizationId = await organizationOfAccount(tx, management);
  if (organizationId === null || organizationId === undefined) {
    ctx.logger.warn(
      { ...management, eventId: event.eventId },
      "an organisation event of an account whose organisation is not known yet: its other accounts see it at their next analysis",
    );
    return [];
  }
  if (organizationId === "") return [];
  const members = await organizationMembers(tx, {
    customerId: event.customerId,
    organizationId,
    exceptAccountId: event.accountId,
  });
  for (const accountId of members) {
    const status = await recordAccountEvent(tx, {
      customerId: event.customerId,
      accountId,
      provider: event.provider,
      eventId: event.eventId,
      eventName: event.eventName,
      eventTime: event.eventTime,
      targets: ORGANIZATION as unknown as Record<string, unknown>[],
      fannedOut: true,
    });
    if (status === "pending")
      await enqueueEventStep(ctx.boss, tx, { customerId: event.customerId, accountId, startAfter });
  }
  if (members.length > 0)
    ctx.logger.info(
      { ...management, organizationId, eventId: event.eventId, accounts: members.length },
      "organisation event fanned out to the customer's accounts in the organisation",
    );
  return members;
}
