import { createHash, randomBytes } from "node:crypto";
import {
  type AccountContext,
  deleteAccountEventSource,
  type EventSourceRow,
  getEventSource,
  rotateEventSource,
} from "@sightline/db";
import {
  AppError,
  AWS_EVENT_TOKEN_HEADER,
  awsEventRulePattern,
  type EventSourceStatus,
  invalidInput,
  isAzureProvider,
  type RotatedEventSource,
} from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { type AccountOwner, loadOwnerAccount } from "../triggers/account-owner.ts";

/** Event tokens start with this, so that a leaked one is recognisable (e.g. by secret scanners). */
const TOKEN_PREFIX = "slev_";

/** The hash stored and looked up: the token itself is never stored. */
export const eventTokenHash = (token: string): Buffer =>
  createHash("sha256").update(token, "utf8").digest();

const addressOf = (publicUrl: string) => ({
  endpoint: `${publicUrl.replace(/\/+$/, "")}/events/aws`,
  headerName: AWS_EVENT_TOKEN_HEADER,
  ruleEventPattern: { ...awsEventRulePattern() },
});

/** The monitored account an event source belongs to: AWS, with Sightline's auditor (`config` or `cvs`). */
async function eventAccount(
  ctx: ServiceContext,
  owner: AccountOwner,
  accountId: string,
): Promise<AccountContext & { monitoring: NonNullable<AccountContext["monitoring"]> }> {
  const account = await loadOwnerAccount(ctx, owner, accountId);
  const monitoring = account.monitoring;
  if (!monitoring)
    throw new AppError("NOT_FOUND", `Account ${accountId} is not monitored: configure it first`);
  if (isAzureProvider(monitoring.provider))
    throw invalidInput("path", [
      {
        path: "accountId",
        message:
          "events are AWS CloudTrail's: an Azure subscription's role-assignment events are not taken yet",
      },
    ]);
  return { ...account, monitoring };
}

/** Creates the account's event token, or replaces it (the old one stops working at once). */
export async function rotateEventToken(
  ctx: ServiceContext,
  owner: AccountOwner,
  accountId: string,
  publicUrl: string,
): Promise<RotatedEventSource> {
  const account = await eventAccount(ctx, owner, accountId);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  await rotateEventSource(ctx.db, {
    customerId: account.customerId,
    accountId,
    provider: account.monitoring.provider,
    tokenHash: eventTokenHash(token),
  });
  return { token, ...addressOf(publicUrl) };
}

function statusOf(row: EventSourceRow, publicUrl: string): EventSourceStatus {
  return {
    ...addressOf(publicUrl),
    tokenCreatedAt: row.tokenCreatedAt.toISOString(),
    eventsReceived: row.eventsReceived,
    eventsApplied: row.eventsApplied,
    eventsRefused: row.eventsRefused,
    unknownEvents: row.unknownEvents,
    ...(row.lastEventAt ? { lastEventAt: row.lastEventAt.toISOString() } : {}),
    ...(row.lastAppliedAt ? { lastAppliedAt: row.lastAppliedAt.toISOString() } : {}),
  };
}

const noEventSource = (accountId: string) =>
  new AppError(
    "NOT_FOUND",
    `Account ${accountId} has no event source: create its token with POST …/account/${accountId}/event-source/rotate`,
  );

/** The account's event source, never its token. */
export async function readEventSource(
  ctx: ServiceContext,
  owner: AccountOwner,
  accountId: string,
  publicUrl: string,
): Promise<EventSourceStatus> {
  const account = await loadOwnerAccount(ctx, owner, accountId);
  const row = await getEventSource(ctx.db, { customerId: account.customerId, accountId });
  if (!row) throw noEventSource(accountId);
  return statusOf(row, publicUrl);
}

/** Switches the account's events off: its token stops at once, pending events are dropped. */
export async function removeEventSource(
  ctx: ServiceContext,
  owner: AccountOwner,
  accountId: string,
): Promise<void> {
  const account = await loadOwnerAccount(ctx, owner, accountId);
  const key = { customerId: account.customerId, accountId };
  const removed = await ctx.db.transaction((tx) => deleteAccountEventSource(tx, key));
  if (!removed) throw noEventSource(accountId);
}
