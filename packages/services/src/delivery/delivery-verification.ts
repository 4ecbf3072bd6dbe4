import { randomBytes } from "node:crypto";
import {
  appendAuditEvent,
  type DeliverySettings,
  type Executor,
  getDirectCustomerView,
  getPartner,
  issueDeliveryVerification,
  markDeliveryProven,
  markDeliveryUnproven,
  type S3Destination,
} from "@sightline/db";
import {
  AppError,
  type DeliveryVerification,
  deliveryVerificationKey,
  type ExecutionWarning,
} from "@sightline/domain";
import type { ReportInbox } from "./report-inbox.ts";

const newToken = () => `sightline-verification-${randomBytes(24).toString("base64url")}`;

/** The route that gives an owner its token: a partner's or a direct customer's. */
const verificationRoute = (ownerId: string) =>
  ownerId.startsWith("P")
    ? `/partner/${ownerId}/delivery-verification`
    : `/customer/${ownerId}/delivery-verification`;

/** The token and proof state of an owner's configured S3 destination (issued on first ask). */
export async function deliveryVerificationOf(
  db: Executor,
  destination: S3Destination,
): Promise<DeliveryVerification> {
  const row = await issueDeliveryVerification(db, destination, newToken());
  return {
    bucketName: row.bucketName,
    ...(row.expectedBucketOwner ? { expectedBucketOwner: row.expectedBucketOwner } : {}),
    key: deliveryVerificationKey(destination.ownerId),
    token: row.token,
    status: row.provenAt ? "proven" : "unproven",
    ...(row.provenAt ? { provenAt: row.provenAt.toISOString() } : {}),
  };
}

/** The S3 destination of a delivery, or undefined for the local folder inbox. */
export function s3DestinationOf(delivery: DeliverySettings): S3Destination | undefined {
  if (!delivery.bucketName || !delivery.kmsKeyId) return undefined;
  return {
    ownerId: delivery.ownerId,
    bucketName: delivery.bucketName,
    ...(delivery.expectedBucketOwner ? { expectedBucketOwner: delivery.expectedBucketOwner } : {}),
  };
}

/**
 * The proof object's text. S3 answers a missing key with 403 to a caller that may not list the
 * bucket (Sightline may not), so a refused read is reported, not thrown: it is no proof.
 */
async function readToken(
  inbox: ReportInbox,
  key: string,
): Promise<{ found?: string; denied?: string }> {
  try {
    const found = await inbox.readText(key);
    return found === undefined ? {} : { found };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "INBOX_DENIED") throw error;
    return { denied: `reading it was refused: ${error.message}` };
  }
}

/**
 * Before anything is written to an S3 destination: its token must be there, every time. A proof
 * once made is read again (one small GET), because a bucket name is global: a proven bucket
 * deleted and registered again by another account must receive nothing. A lost proof is
 * recorded, in the owner's audit trail too, and the delivery fails `INBOX_UNPROVEN` saying why.
 * An unproven destination is proven now if its token is there; otherwise the delivery fails, or,
 * where the operator allows unproven destinations for a transition, goes on with a warning.
 */
export async function proveDestination(
  db: Executor,
  destination: S3Destination,
  inbox: ReportInbox,
  options: { allowUnproven: boolean },
): Promise<ExecutionWarning[]> {
  const verification = await deliveryVerificationOf(db, destination);
  const read = await readToken(inbox, verification.key);
  const where = `s3://${destination.bucketName}/${verification.key}`;
  const seen =
    read.denied ??
    (read.found === undefined ? "nothing is there" : "what is there is not the token");
  const holds = read.found?.trim() === verification.token;
  if (verification.status === "proven") {
    if (holds) return [];
    await recordProofLost(db, destination, seen);
    throw new AppError(
      "INBOX_UNPROVEN",
      `The proof that ${destination.ownerId} controls the bucket ${destination.bucketName} no longer holds: its token at ${where} is gone (${seen}). The bucket may have been deleted and its name registered by another AWS account, so nothing was written: if the bucket is yours, get a new token with GET ${verificationRoute(destination.ownerId)}, put it at ${where}, then trigger the analysis again`,
    );
  }
  if (holds) {
    if (await markDeliveryProven(db, destination, verification.token))
      await recordProofEvent(db, destination, "delivery.proven", {
        proven: { old: false, new: true },
      });
    return [];
  }
  const what = `Sightline has not verified that ${destination.ownerId} controls the bucket ${destination.bucketName} (${seen})`;
  const todo = `get the token with GET ${verificationRoute(destination.ownerId)}, put it at ${where}, then trigger the analysis again`;
  if (options.allowUnproven)
    return [
      {
        code: "unproven-destination",
        message: `${what}; delivered anyway because the operator allows unproven destinations for now: ${todo}`,
      },
    ];
  throw new AppError("INBOX_UNPROVEN", `${what}, so nothing was written: ${todo}`);
}

async function recordProofLost(db: Executor, destination: S3Destination, seen: string) {
  if (await markDeliveryUnproven(db, destination.ownerId))
    await recordProofEvent(db, destination, "delivery.proof-lost", {
      proven: { old: true, new: false },
      reason: { old: null, new: `the token is gone from the bucket (${seen})` },
    });
}

/** The proof of an inbox and its loss, in the owner's audit trail, done by Sightline itself. */
function recordProofEvent(
  db: Executor,
  destination: S3Destination,
  action: string,
  changes: Record<string, unknown>,
) {
  return appendAuditEvent(db, {
    tenant: destination.ownerId,
    keyId: null,
    actorName: "sightline",
    action,
    route: "delivery",
    params: { bucketName: destination.bucketName },
    status: 200,
    requestId: null,
    changes,
  });
}

/** Whose configured destination: a partner's (`DeliverToPartner`) or a direct customer's. */
export type DestinationOwner =
  | { kind: "partner"; partnerId: string }
  | { kind: "direct"; customerId: string };

/**
 * The verification of an owner's configured `DeliverToS3` bucket, issuing its token on first
 * ask: 404 for an unknown owner or one without a bucket (its reports go to the local inbox).
 */
export async function getDeliveryVerification(
  db: Executor,
  owner: DestinationOwner,
): Promise<DeliveryVerification> {
  const ownerId = owner.kind === "partner" ? owner.partnerId : owner.customerId;
  const config =
    owner.kind === "partner"
      ? await getPartner(db, owner.partnerId)
      : await getDirectCustomerView(db, owner.customerId);
  if (!config)
    throw new AppError(
      "NOT_FOUND",
      owner.kind === "partner"
        ? `Partner ${ownerId} is not configured: PUT /partner/${ownerId} first`
        : `Customer ${ownerId} is not registered: the operator registers it with PUT /admin/customers/${ownerId}`,
    );
  const bucket = config.deliveryDestinations?.DeliverToS3;
  if (!bucket) {
    const path = owner.kind === "partner" ? `/partner/${ownerId}` : `/customer/${ownerId}`;
    throw new AppError(
      "NOT_FOUND",
      `${ownerId} has no S3 destination to verify: its reports go to the service's local inbox; configure deliveryDestinations.DeliverToS3 with PUT ${path} first`,
    );
  }
  return deliveryVerificationOf(db, {
    ownerId,
    bucketName: bucket.bucketName,
    ...(bucket.expectedBucketOwner ? { expectedBucketOwner: bucket.expectedBucketOwner } : {}),
  });
}
