import { z } from "zod";
import { ChangeCause } from "./change-cause.ts";

/**
 * What one analysis of an account tells against the account's previous successful one. Each
 * change is one row of the `access-changes` report, one item of the changes API and what an
 * alert carries; the shape follows k9-cli's `diff` (`added`/`removed`/`changed`, before/after).
 */
export const CHANGE_KINDS = [
  "principal-added",
  "principal-removed",
  "iam-admin-gained",
  "iam-admin-lost",
  /** A capability a principal now has on a service (and resource) that it did not have. */
  "access-gained",
  "access-lost",
  /** A resource of the account is newly reached by a principal outside it, another account or everyone. */
  "external-access-gained",
  /** A resource whose confidentiality tag is one of the customer's confidential values is newly reached. */
  "confidential-access-gained",
  "credential-created",
  "credential-activated",
  "credential-deactivated",
] as const;
export const ChangeKind = z.enum(CHANGE_KINDS);
export type ChangeKind = z.infer<typeof ChangeKind>;

/** Who newly reaches a resource, seen from the analysed account. */
export const ACCESS_REACHES = [
  /** A principal of the analysed account. */
  "account",
  /** One principal (a user, role or service) of another account. */
  "external-principal",
  /** A whole other account (its root: any principal its admins allow). */
  "external-account",
  /** Everyone (`*`), possibly under conditions. */
  "everyone",
] as const;
export const AccessReach = z.enum(ACCESS_REACHES);
export type AccessReach = z.infer<typeof AccessReach>;

export const AccessChange = z.object({
  /**
   * Stable: the same change between the same two analyses always has the same ID (an analysis
   * run again never alerts twice). 32 hex digits.
   */
  changeId: z.string().regex(/^[0-9a-f]{32}$/),
  kind: ChangeKind,
  /** k9-cli's diff words: what the later analysis has that the earlier did not, and so on. */
  change: z.enum(["added", "removed", "changed"]),
  principalArn: z.string(),
  principalName: z.string(),
  principalType: z.string(),
  /** Empty for a change of the principal itself (added, admin, credential). */
  serviceName: z.string(),
  accessCapability: z.string(),
  /** Empty for service-wide access and for principal changes. */
  resourceArn: z.string(),
  reach: AccessReach.optional(),
  confidential: z.boolean(),
  /** As the report cells say it, e.g. `no access` / `read-data`, `Active` / `Inactive`. */
  before: z.string(),
  after: z.string(),
  /** The policies that grant it now (empty for what was lost). */
  grantedBy: z.array(z.string()),
  /** What made it (absent for changes stored before causes were): equal causes are one act. */
  cause: ChangeCause.optional(),
});
export type AccessChange = z.infer<typeof AccessChange>;

/** What alerts by default: the changes a security team wants to hear of the same day. */
export const DEFAULT_ALERT_KINDS: readonly ChangeKind[] = [
  "iam-admin-gained",
  "external-access-gained",
  "confidential-access-gained",
];

/**
 * Whether a change answers an alert rule's kind. A gained access that is both external and
 * confidential is reported once (as `external-access-gained`) and answers both rules.
 */
export function changeMatchesKind(change: AccessChange, kind: ChangeKind): boolean {
  if (change.kind === kind) return true;
  const gained =
    change.kind === "access-gained" ||
    change.kind === "external-access-gained" ||
    change.kind === "confidential-access-gained";
  if (!gained) return false;
  if (kind === "confidential-access-gained") return change.confidential;
  if (kind === "external-access-gained")
    return change.reach !== undefined && change.reach !== "account";
  return kind === "access-gained";
}

/** The customer's confidentiality values, compared without case. */
export const DEFAULT_CONFIDENTIAL_VALUES: readonly string[] = [
  "high",
  "confidential",
  "restricted",
  "secret",
];

/** One change as the changes API lists it: the change, and the analysis that found it. */
export const ListedChange = AccessChange.extend({
  executionId: z.string(),
  analysisTime: z.iso.datetime(),
}).meta({ id: "AccessChange" });
export type ListedChange = z.infer<typeof ListedChange>;

export const ChangeList = z
  .object({
    changes: z.array(ListedChange),
    /** Pass as `cursor` for the next page; absent on the last. */
    nextCursor: z.string().optional(),
  })
  .meta({ id: "ChangeList" });
export type ChangeList = z.infer<typeof ChangeList>;

export const PageLimit = z.coerce
  .number<string>()
  .int()
  .min(1)
  .max(1000)
  .optional()
  .describe("Items per page, 1 to 1000 (default 100)");
export const Cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, "must be a nextCursor of a previous page")
  .optional()
  .describe("The `nextCursor` of the previous page");

export const ChangeListQuery = z.object({
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("Only changes found by analyses at or after this time (ISO 8601)"),
  cursor: Cursor,
  limit: PageLimit,
});

export const FINDING_STATUSES = ["active", "resolved"] as const;

export const Finding = z
  .object({
    findingId: z.string(),
    kind: z.string(),
    status: z.enum(FINDING_STATUSES),
    severity: z.enum(["low", "medium", "high"]),
    /** The principal or resource (with `#` and a credential, capability or principal). */
    subject: z.string(),
    title: z.string(),
    description: z.string(),
    firstSeen: z.iso.datetime(),
    lastSeen: z.iso.datetime(),
    resolvedAt: z.iso.datetime().optional(),
    executionId: z.string(),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Finding" });
export type Finding = z.infer<typeof Finding>;

export const FindingList = z
  .object({ findings: z.array(Finding), nextCursor: z.string().optional() })
  .meta({ id: "FindingList" });
export type FindingList = z.infer<typeof FindingList>;

export const FindingListQuery = z.object({
  status: z.enum(FINDING_STATUSES).optional().describe("`active` (default: both) or `resolved`"),
  cursor: Cursor,
  limit: PageLimit,
});
