import { createHash } from "node:crypto";

/** The `previousHash` of a tenant's first event. */
export const GENESIS_HASH = "0".repeat(64);

/** The fields an audit event's hash covers: all of them but its own ID and hash. */
export interface ChainedFields {
  tenant: string;
  at: Date;
  keyId: string | null;
  actorName: string;
  action: string;
  route: string;
  params: Record<string, string>;
  status: number;
  requestId: string | null;
  changes: Record<string, unknown>;
  previousHash: string;
}

/** JSON with object keys sorted: Postgres's jsonb keeps no key order, the hash needs one. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of an event's fields and the hash before it. */
export function auditEventHash(event: ChainedFields): string {
  return createHash("sha256")
    .update(
      canonical({
        tenant: event.tenant,
        at: event.at.toISOString(),
        keyId: event.keyId,
        actorName: event.actorName,
        action: event.action,
        route: event.route,
        params: event.params,
        status: event.status,
        requestId: event.requestId,
        changes: event.changes,
        previousHash: event.previousHash,
      }),
    )
    .digest("hex");
}
