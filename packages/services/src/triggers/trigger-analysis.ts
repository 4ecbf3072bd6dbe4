import { randomBytes } from "node:crypto";
import {
  type AccountContext,
  countOnDemandExecutions,
  type EncryptedCredential,
  insertExecution,
  type NewExecution,
} from "@sightline/db";
import {
  AppError,
  AzureSubscriptionId,
  checkOwnCredential,
  type ExecutionKind,
  formatExecutionId,
  invalidInput,
  isAzureProvider,
  OWN_CREDENTIAL_AWS_ONLY,
  type OwnCredential,
  PLAN_LIMITS,
  secondsUntilNextUtcDay,
} from "@sightline/domain";
import { requireOemGrant } from "../analysis/vending-call.ts";
import type { ServiceContext } from "../context.ts";
import { sealForExecution } from "../credentials/envelope.ts";
import { enqueueAnalysis } from "../queue/analysis-queue.ts";
import { type AccountOwner, loadOwnerAccount } from "./account-owner.ts";

export type { AccountOwner } from "./account-owner.ts";

export interface TriggerRequest {
  owner: AccountOwner;
  accountId: string;
  kind: ExecutionKind;
  /** The caller's own STS credentials (endpoint 14), instead of the configured auditor. */
  credential?: OwnCredential;
  /** A daily job starts later in the day's window. */
  startAfter?: Date;
}

export interface TriggeredExecution {
  customerId: string;
  accountId: string;
  executionId: string;
}

const SUFFIX_ATTEMPTS = 5;

function accountNotConfigured(owner: AccountOwner, accountId: string): AppError {
  const path =
    owner.kind === "partner"
      ? `/partner/${owner.partnerId}/customer/${owner.partnerCustomerId}/account/${accountId}`
      : `/customer/${owner.customerId}/account/${accountId}`;
  const own = owner.kind === "partner" ? ", or trigger with your own credential" : "";
  return new AppError(
    "NOT_FOUND",
    `Account ${accountId} is not monitored: configure it with PUT ${path} first${own}`,
  );
}

/** Provider and auditor of the run; refuses what cannot be analysed. */
function chooseAuditor(
  request: TriggerRequest,
  account: AccountContext,
  now: Date,
): { provider: string; authMethod: NewExecution["authMethod"] } {
  if (request.credential) {
    if (
      AzureSubscriptionId.safeParse(request.accountId).success ||
      (account.monitoring && isAzureProvider(account.monitoring.provider))
    )
      throw invalidInput("request body", [
        { path: "auditorAuthMethod", message: OWN_CREDENTIAL_AWS_ONLY },
      ]);
    const problems = checkOwnCredential(request.credential, request.accountId, now);
    if (problems.length > 0) throw invalidInput("request body", problems);
    return { provider: request.credential.provider, authMethod: "credential" };
  }
  const monitoring = account.monitoring;
  if (!monitoring) throw accountNotConfigured(request.owner, request.accountId);
  if (monitoring.auditorAuthMethod === "cvs") requireOemGrant(account);
  return { provider: monitoring.provider, authMethod: monitoring.auditorAuthMethod };
}

async function checkDailyLimit(ctx: ServiceContext, account: AccountContext, now: Date) {
  const limit = PLAN_LIMITS[account.plan].onDemandTriggersPerDay;
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const used = await countOnDemandExecutions(ctx.db, account, dayStart);
  if (used >= limit) {
    const retryAfter = secondsUntilNextUtcDay(now);
    throw new AppError(
      "RATE_LIMITED",
      `Account ${account.accountId} has had its ${limit} on-demand analyses of today (plan ${account.plan}); the next is possible at 00:00 UTC`,
      { details: { retryAfterSeconds: retryAfter } },
    );
  }
}

/**
 * Starts an analysis: checks the account and the plan's daily limit, seals an own credential,
 * and writes the execution and its job in one transaction. At most one execution per account
 * is queued or running: another trigger meanwhile gets CONFLICT naming it.
 */
export async function triggerAnalysis(
  ctx: ServiceContext,
  request: TriggerRequest,
): Promise<TriggeredExecution> {
  const now = ctx.now();
  const account = await loadOwnerAccount(ctx, request.owner, request.accountId);
  const auditor = chooseAuditor(request, account, now);
  if (request.kind === "ondemand") await checkDailyLimit(ctx, account, now);
  for (let attempt = 0; attempt < SUFFIX_ATTEMPTS; attempt++) {
    const executionId = formatExecutionId({
      kind: request.kind,
      customerId: account.customerId,
      accountId: request.accountId,
      startedAt: now,
      random: randomBytes(4),
    });
    const credential = request.credential && (await seal(ctx, executionId, request.credential));
    const execution: NewExecution = {
      executionId,
      kind: request.kind,
      customerId: account.customerId,
      accountId: request.accountId,
      ...(account.partnerId ? { partnerId: account.partnerId } : {}),
      ...(account.partnerCustomerId ? { partnerCustomerId: account.partnerCustomerId } : {}),
      ...auditor,
    };
    const result = await insertExecution(
      ctx.db,
      { execution, ...(credential ? { credential } : {}) },
      (tx) =>
        enqueueAnalysis(ctx.boss, tx, {
          executionId,
          customerId: account.customerId,
          accountId: request.accountId,
          kind: request.kind,
          ...(request.startAfter ? { startAfter: request.startAfter } : {}),
        }),
    );
    if (result.kind === "inserted")
      return { customerId: account.customerId, accountId: request.accountId, executionId };
    if (result.kind === "active")
      throw new AppError(
        "CONFLICT",
        `Account ${request.accountId} is already being analysed by execution ${result.executionId}; wait for it to finish`,
        { details: { activeExecutionId: result.executionId } },
      );
  }
  throw new Error(`no free execution ID after ${SUFFIX_ATTEMPTS} attempts`);
}

function seal(
  ctx: ServiceContext,
  executionId: string,
  credential: OwnCredential,
): Promise<EncryptedCredential> {
  const expiresAt = new Date(credential.details.expiration);
  return sealForExecution(ctx.masterKey, executionId, JSON.stringify(credential), expiresAt);
}
