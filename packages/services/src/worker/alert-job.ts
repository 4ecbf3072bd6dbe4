import {
  type AlertDeliveryRow,
  type AlertDestinationRow,
  getAlertDelivery,
  getAlertDestination,
  recordAlertAttempt,
} from "@sightline/db";
import type { AccessChange, AlertAttemptOutcome, AlertPayload } from "@sightline/domain";
import type PgBoss from "pg-boss";
import { openDestinationSecret } from "../alerts/destination-secret.ts";
import type { DigestContext } from "../alerts/email-digest.ts";
import { sendEmailDigest } from "../alerts/send-email.ts";
import { type SecurityHubConfig, sendToSecurityHub } from "../alerts/send-security-hub.ts";
import { type SendResult, sendWebhook } from "../alerts/send-webhook.ts";
import type { ServiceContext } from "../context.ts";
import type { AlertJob } from "../queue/alert-queue.ts";
import { type JobLease, UNLEASED } from "../queue/job-lease.ts";

/** The webhook body: exactly what is signed and sent. */
export function alertPayloadOf(delivery: AlertDeliveryRow): AlertPayload {
  return {
    alertId: delivery.alertId,
    customerId: delivery.customerId,
    accountId: delivery.accountId,
    provider: delivery.provider,
    executionId: delivery.executionId,
    analysisTime: delivery.analysisTime.toISOString(),
    changes: delivery.changes as AccessChange[],
  };
}

async function send(
  ctx: ServiceContext,
  destination: AlertDestinationRow,
  delivery: AlertDeliveryRow,
): Promise<SendResult> {
  const settings = ctx.alerts ?? {};
  const context: DigestContext = { ...delivery };
  const changes = delivery.changes as AccessChange[];
  switch (destination.kind) {
    case "webhook": {
      if (!destination.secretEnvelope)
        return { outcome: "failed", error: "the destination has no signing secret: rotate it" };
      const secret = await openDestinationSecret(
        ctx.masterKey,
        destination.destinationId,
        destination.secretEnvelope,
      );
      return sendWebhook({
        url: String(destination.config.url),
        secret,
        alertId: delivery.alertId,
        body: JSON.stringify(alertPayloadOf(delivery)),
        now: ctx.now(),
        settings,
      });
    }
    case "email":
      return sendEmailDigest({
        settings,
        recipients: destination.config.recipients as string[],
        context,
        changes,
      });
    case "securityhub":
      return sendToSecurityHub({
        settings,
        config: destination.config as unknown as SecurityHubConfig,
        context,
        changes,
      });
  }
}

/**
 * One attempt at one alert, recorded whatever its outcome. Returns `retry` when pg-boss should
 * run the job again after its back-off (`final`: this was the last attempt, so it fails instead).
 */
export async function deliverAlert(
  ctx: ServiceContext,
  alertId: string,
  options: { final: boolean; lease?: JobLease },
): Promise<"done" | "retry"> {
  const lease = options.lease ?? UNLEASED;
  const delivery = await getAlertDelivery(ctx.db, alertId);
  if (delivery?.status !== "queued") return "done";
  const destination = await getAlertDestination(ctx.db, delivery.destinationId);
  if (!destination) return "done";
  // An attempt that lost its job to another sends nothing more (the other sends the same alert ID).
  lease.check();
  let result: SendResult;
  try {
    result = await send(ctx, destination, delivery);
  } catch (error) {
    result = {
      outcome: "retry",
      error: `Sightline failed to send it: ${(error as Error).message}`,
    };
  }
  const outcome: AlertAttemptOutcome =
    result.outcome === "delivered"
      ? "delivered"
      : result.outcome === "retry" && !options.final
        ? "retrying"
        : "failed";
  await lease.fenced(ctx.db, (tx) =>
    recordAlertAttempt(tx, {
      alertId,
      destinationId: destination.destinationId,
      outcome,
      ...(result.status === undefined ? {} : { status: result.status }),
      ...(result.outcome === "delivered" ? {} : { error: result.error }),
    }),
  );
  const fields = {
    alertId,
    destinationId: destination.destinationId,
    kind: destination.kind,
    outcome,
    ...(result.status === undefined ? {} : { status: result.status }),
  };
  if (outcome === "delivered") ctx.logger.info(fields, "alert delivered");
  else
    ctx.logger.warn(
      { ...fields, error: "error" in result ? result.error : undefined },
      "alert not delivered",
    );
  return outcome === "retrying" ? "retry" : "done";
}

/**
 * An alert job that pg-boss failed for good without the handler recording it (its worker died,
 * or hung past the job's expiry, on every attempt): the alert ends `failed` with that reason.
 */
export function lostAlertHandler(ctx: ServiceContext) {
  return async (jobs: PgBoss.Job<AlertJob>[]) => {
    for (const job of jobs) {
      const delivery = await getAlertDelivery(ctx.db, job.data.alertId);
      if (delivery?.status !== "queued") continue;
      ctx.logger.error({ alertId: delivery.alertId }, "alert lost: its worker stopped");
      await recordAlertAttempt(ctx.db, {
        alertId: delivery.alertId,
        destinationId: delivery.destinationId,
        outcome: "failed",
        error: "the delivery stopped without finishing (its worker was stopped or ran out of time)",
      });
    }
  };
}

/** Delivers one alert job; an attempt that may pass is thrown so that pg-boss retries it. */
export function alertJobHandler(ctx: ServiceContext) {
  return async (job: PgBoss.JobWithMetadata<AlertJob>, lease: JobLease) => {
    const final = job.retryCount >= job.retryLimit;
    if ((await deliverAlert(ctx, job.data.alertId, { final, lease })) === "retry")
      throw new Error(`alert ${job.data.alertId} will be tried again`);
  };
}
