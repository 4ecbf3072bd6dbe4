import { z } from "zod";

/** A field's value before and after a change; a secret's values are never kept, only that it changed. */
export const AuditFieldChange = z.union([
  z.object({ old: z.unknown(), new: z.unknown() }),
  z.literal("changed"),
]);
export type AuditFieldChange = z.infer<typeof AuditFieldChange>;

/**
 * One entry of a tenant's audit trail: who (a key's ID and name, or `operator`), what (the route
 * and the identifiers it named), when, with what result, and the fields it changed. `hash` chains
 * each event to the one before it in its tenant's trail (`previousHash`).
 */
export const AuditEvent = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    tenant: z.string(),
    actor: z.object({ keyId: z.string().nullable(), name: z.string() }),
    action: z.string(),
    route: z.string(),
    params: z.record(z.string(), z.string()),
    status: z.number().int(),
    requestId: z.string().nullable(),
    changes: z.record(z.string(), AuditFieldChange),
    hash: z.string(),
    previousHash: z.string(),
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditEventPage = z.object({
  events: z.array(AuditEvent),
  nextCursor: z.string().nullable(),
});
export type AuditEventPage = z.infer<typeof AuditEventPage>;

/** `?since=&keyId=&cursor=&limit=&format=` of the audit-events routes. */
export const AuditEventQuery = z.object({
  since: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).optional(),
  keyId: z
    .string()
    .regex(/^(key_[A-Za-z0-9_-]{16}|operator)$/, "must be an API key ID (key_…) or operator")
    .optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "must be a cursor from a previous page")
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  format: z.enum(["json", "jsonl"]).default("json"),
});
export type AuditEventQuery = z.infer<typeof AuditEventQuery>;

/** Field names whose values are secrets: an audit event says only that they changed. */
const SECRET_FIELD =
  /secret|token|password|credential|externalid|sessiontoken|accesskey|^key$|keyhash/i;

export const isSecretField = (name: string) => SECRET_FIELD.test(name);

/**
 * The fields that differ between two states of a resource, by dotted path; secrets as
 * "changed". Arrays compare whole.
 */
export function diffAuditFields(
  before: unknown,
  after: unknown,
  path = "",
  out: Record<string, AuditFieldChange> = {},
): Record<string, AuditFieldChange> {
  const name = path.split(".").pop() ?? "";
  if (path && isSecretField(name)) {
    if (JSON.stringify(before) !== JSON.stringify(after)) out[path] = "changed";
    return out;
  }
  const absent = (value: unknown) => value === undefined || value === null;
  // An object created or removed is compared field by field with nothing: its secrets stay hidden.
  if (
    (isPlainObject(before) || absent(before)) &&
    (isPlainObject(after) || absent(after)) &&
    !(absent(before) && absent(after))
  ) {
    const b = isPlainObject(before) ? before : {};
    const a = isPlainObject(after) ? after : {};
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)]))
      diffAuditFields(b[key], a[key], path ? `${path}.${key}` : key, out);
    return out;
  }
  if (JSON.stringify(before) !== JSON.stringify(after))
    out[path || "value"] = { old: before ?? null, new: after ?? null };
  return out;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
