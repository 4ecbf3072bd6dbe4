import { randomUUID } from "node:crypto";
import {
  type AlertDestinationRow,
  type AlertDestinationWrite,
  type AlertOwner,
  alertOwnerExists,
  alertOwnerId,
  listAlertDestinations,
  lockAlertOwner,
  recentAlertAttempts,
  securityHubRoleTakenByOthers,
  setAlertDestinationSecret,
  writeAlertDestinations,
} from "@sightline/db";
import {
  type AlertAttempt,
  type AlertDestination,
  type AlertDestinationInput,
  type AlertDestinations,
  type AlertDestinationsBody,
  AppError,
  DEFAULT_ALERT_KINDS,
  invalidInput,
  RECENT_ALERT_ATTEMPTS,
  type RotatedAlertSecret,
  SECURITY_HUB_ROLE_IN_USE,
  type StoredAlertDestinations,
  type ValidationIssue,
} from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { sealDestinationSecret } from "./destination-secret.ts";
import { newWebhookSecret } from "./webhook-signature.ts";
import { checkWebhookUrl, RefusedWebhookUrl } from "./webhook-url.ts";

function notFound(owner: AlertOwner): AppError {
  const id = alertOwnerId(owner);
  return new AppError(
    "NOT_FOUND",
    owner.kind === "partner"
      ? `Partner ${id} is not configured: PUT /partner/${id} first`
      : `Customer ${id} is not registered: the operator registers it with PUT /admin/customers/${id}`,
  );
}

function viewOf(row: AlertDestinationRow, attempts: AlertAttempt[]): AlertDestination {
  const common = {
    destinationId: row.destinationId,
    name: row.name,
    alertOn: row.alertOn as AlertDestination["alertOn"],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    recentAttempts: attempts,
  };
  switch (row.kind) {
    case "webhook":
      return { ...common, kind: "webhook", url: String(row.config.url) };
    case "email":
      return { ...common, kind: "email", recipients: row.config.recipients as string[] };
    case "securityhub":
      return {
        ...common,
        kind: "securityhub",
        roleArn: String(row.config.roleArn),
        region: String(row.config.region),
      };
  }
}

async function viewsOf(ctx: ServiceContext, rows: AlertDestinationRow[]) {
  const attempts = await recentAlertAttempts(
    ctx.db,
    rows.map((row) => row.destinationId),
    RECENT_ALERT_ATTEMPTS,
  );
  return rows.map((row) => viewOf(row, attempts.get(row.destinationId) ?? []));
}

/** The owner's destinations with their latest attempts; never a secret or an external ID. */
export async function getAlertDestinations(
  ctx: ServiceContext,
  owner: AlertOwner,
): Promise<AlertDestinations> {
  if (!(await alertOwnerExists(ctx.db, owner))) throw notFound(owner);
  return { destinations: await viewsOf(ctx, await listAlertDestinations(ctx.db, owner)) };
}

/** What the body's schema cannot tell: URLs Sightline may call, a relay for email. */
async function checkDestinations(
  ctx: ServiceContext,
  destinations: readonly AlertDestinationInput[],
): Promise<void> {
  const issues: ValidationIssue[] = [];
  await Promise.all(
    destinations.map(async (destination, index) => {
      if (destination.kind === "webhook") {
        try {
          await checkWebhookUrl(destination.url, ctx.alerts);
        } catch (error) {
          if (!(error instanceof RefusedWebhookUrl)) throw error;
          issues.push({ path: `destinations.${index}.url`, message: error.message });
        }
      }
      if (destination.kind === "email" && !ctx.alerts?.smtp)
        issues.push({
          path: `destinations.${index}.kind`,
          message:
            "email is unavailable: the operator has no mail relay configured (SIGHTLINE_SMTP_URL)",
        });
    }),
  );
  issues.sort((a, b) => a.path.localeCompare(b.path, "en", { numeric: true }));
  if (issues.length > 0) throw invalidInput("request body", issues);
}

const configOf = (destination: AlertDestinationInput): Record<string, unknown> => {
  switch (destination.kind) {
    case "webhook":
      return { url: destination.url };
    case "email":
      return { recipients: destination.recipients };
    case "securityhub":
      return {
        roleArn: destination.roleArn,
        externalId: destination.externalId,
        region: destination.region,
      };
  }
};

/** The stored destination a new one continues: same kind and name (and, for a webhook, URL). */
const continues = (row: AlertDestinationRow, destination: AlertDestinationInput) =>
  row.kind === destination.kind &&
  row.name.toLowerCase() === destination.name.toLowerCase() &&
  (destination.kind !== "webhook" || row.config.url === destination.url);

/**
 * Replaces the owner's destinations. A destination of the same kind and name (and, for a
 * webhook, URL) keeps its ID, history and secret; a new webhook gets a secret, returned here
 * once. Nothing is stored when anything is refused.
 */
export async function putAlertDestinations(
  ctx: ServiceContext,
  owner: AlertOwner,
  body: AlertDestinationsBody,
): Promise<StoredAlertDestinations> {
  if (!(await alertOwnerExists(ctx.db, owner))) throw notFound(owner);
  await checkDestinations(ctx, body.destinations);
  const secrets = new Map<string, string>();
  const rows = await ctx.db.transaction(async (tx) => {
    await lockAlertOwner(tx, owner);
    const existing = await listAlertDestinations(tx, owner);
    const keep: AlertDestinationWrite[] = [];
    const create: AlertDestinationWrite[] = [];
    for (const [position, destination] of body.destinations.entries()) {
      if (
        destination.kind === "securityhub" &&
        (await securityHubRoleTakenByOthers(tx, destination, owner))
      )
        throw new AppError("CONFLICT", SECURITY_HUB_ROLE_IN_USE);
      const previous = existing.find((row) => continues(row, destination));
      const write: AlertDestinationWrite = {
        destinationId: previous?.destinationId ?? randomUUID(),
        name: destination.name,
        kind: destination.kind,
        config: configOf(destination),
        alertOn: [...(destination.alertOn ?? DEFAULT_ALERT_KINDS)],
        position,
      };
      if (previous) keep.push(write);
      else {
        if (destination.kind === "webhook") {
          const secret = newWebhookSecret();
          secrets.set(write.destinationId, secret);
          write.secretEnvelope = await sealDestinationSecret(
            ctx.masterKey,
            write.destinationId,
            secret,
          );
        }
        create.push(write);
      }
    }
    await writeAlertDestinations(tx, owner, { keep, create });
    return listAlertDestinations(tx, owner);
  });
  const views = await viewsOf(ctx, rows);
  return {
    destinations: views.map((view) => {
      const secret = secrets.get(view.destinationId);
      return secret ? { ...view, secret } : view;
    }),
  };
}

/** A new signing secret for one of the owner's webhooks, returned once; the old one stops. */
export async function rotateAlertSecret(
  ctx: ServiceContext,
  owner: AlertOwner,
  destinationId: string,
): Promise<RotatedAlertSecret> {
  const secret = newWebhookSecret();
  const sealed = await sealDestinationSecret(ctx.masterKey, destinationId, secret);
  if (!(await setAlertDestinationSecret(ctx.db, owner, destinationId, sealed)))
    throw new AppError(
      "NOT_FOUND",
      `${alertOwnerId(owner)} has no webhook alert destination ${destinationId}`,
    );
  return { destinationId, secret };
}
