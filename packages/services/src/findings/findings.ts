import { createHash } from "node:crypto";
import type { FindingRow, ObservedFinding } from "@sightline/db";
import type { FindingReportRow } from "@sightline/reports";
import { type ReachSummary, ReachSummer } from "../results/record-text.ts";
import type {
  CredentialState,
  PrincipalRecord,
  ResourceRecord,
} from "../results/result-records.ts";

/** Who reaches a decoded resource, as `FindingCollector.addResource` takes it. */
export function summaryOfReach(reach: ResourceRecord["reach"]): ReachSummary {
  const summer = new ReachSummer();
  for (const [principal, type, capability, inAccount] of reach)
    summer.add(principal, type, capability, inAccount === 1);
  return summer.summary();
}

/**
 * The thresholds of the reviews k9 teaches (its katas), per customer. Defaults: 90 days, as
 * k9's kata 2 (unused principals) and AWS's own credential guidance; 5 principals per
 * capability, as k9-cli's `over-accessible-resources` (cmd/query_risks_overAccessibleResources.go).
 */
export interface FindingThresholds {
  unusedPrincipalDays: number;
  credentialRotationDays: number;
  unusedAccessKeyDays: number;
  /** A resource that more principals than this can administer, write or delete. */
  maxPrincipalsPerCapability: number;
}

export const DEFAULT_FINDING_THRESHOLDS: FindingThresholds = {
  unusedPrincipalDays: 90,
  credentialRotationDays: 90,
  unusedAccessKeyDays: 90,
  maxPrincipalsPerCapability: 5,
};

export const FINDING_KINDS = [
  "iam-admin",
  "unused-principal",
  "stale-password",
  "stale-access-key",
  "unused-access-key",
  "over-accessible-resource",
  "external-access",
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** The kinds of findings about a principal (`addPrincipal`) and about a resource (`addResource`). */
export const PRINCIPAL_FINDING_KINDS: readonly FindingKind[] = [
  "iam-admin",
  "unused-principal",
  "stale-password",
  "stale-access-key",
  "unused-access-key",
];
export const RESOURCE_FINDING_KINDS: readonly FindingKind[] = [
  "over-accessible-resource",
  "external-access",
];

const TITLES: Readonly<Record<FindingKind, string>> = {
  "iam-admin": "IAM administrator",
  "unused-principal": "Unused principal",
  "stale-password": "Password not rotated",
  "stale-access-key": "Access key not rotated",
  "unused-access-key": "Active access key not used",
  "over-accessible-resource": "Resource accessible to many principals",
  "external-access": "Access from outside the account",
};

const DAY_MS = 86_400_000;

/**
 * Collects the findings of one analysis while its records stream past (it keeps only the
 * findings). IDs are stable: the same kind about the same subject of the same account.
 */
export class FindingCollector {
  readonly #found: ObservedFinding[] = [];
  readonly #now: number;

  constructor(
    readonly account: { customerId: string; accountId: string },
    readonly analysisTime: Date,
    readonly thresholds: FindingThresholds = DEFAULT_FINDING_THRESHOLDS,
  ) {
    this.#now = analysisTime.getTime();
  }

  #add(kind: FindingKind, subject: string, severity: string, detail: Record<string, unknown>) {
    const findingId = createHash("sha256")
      .update([this.account.customerId, this.account.accountId, kind, subject].join("\u0000"))
      .digest("hex")
      .slice(0, 32);
    this.#found.push({
      findingId,
      kind,
      subject,
      severity,
      detail: { title: TITLES[kind], ...detail },
    });
  }

  #olderThan(iso: string | undefined, days: number): boolean {
    return iso !== undefined && this.#now - Date.parse(iso) > days * DAY_MS;
  }

  addPrincipal(p: Omit<PrincipalRecord, "access">): void {
    const t = this.thresholds;
    const who = { principalArn: p.arn, principalName: p.name, principalType: p.type };
    if (p.iamAdmin !== "no")
      this.#add("iam-admin", p.arn, "medium", {
        ...who,
        description: `${p.name} can administer IAM${p.iamAdmin === "conditional" ? " under conditions" : ""}: it can grant itself or anyone any access.`,
        grantedBy: p.iamAdminGrantedBy,
      });
    if (p.lastUsed === undefined || this.#olderThan(p.lastUsed, t.unusedPrincipalDays))
      this.#add("unused-principal", p.arn, "low", {
        ...who,
        lastUsed: p.lastUsed ?? null,
        thresholdDays: t.unusedPrincipalDays,
        description: p.lastUsed
          ? `${p.name} was last used ${p.lastUsed.slice(0, 10)}, more than ${t.unusedPrincipalDays} days ago.`
          : `${p.name} has no recorded use.`,
      });
    const { password } = p.credentials;
    if (
      password?.state === "Active" &&
      this.#olderThan(password.lastRotated, t.credentialRotationDays)
    )
      this.#add("stale-password", p.arn, "medium", {
        ...who,
        lastRotated: password.lastRotated,
        thresholdDays: t.credentialRotationDays,
        description: `${p.name}'s console password was last changed ${password.lastRotated?.slice(0, 10)}.`,
      });
    for (const [slot, key] of [
      ["access_key_1", p.credentials.accessKey1],
      ["access_key_2", p.credentials.accessKey2],
    ] as const)
      this.#addKey(p, who, slot, key);
  }

  #addKey(
    p: Omit<PrincipalRecord, "access">,
    who: Record<string, string>,
    slot: string,
    key: CredentialState | undefined,
  ) {
    const t = this.thresholds;
    if (key?.state !== "Active") return;
    const subject = `${p.arn}#${slot}`;
    if (this.#olderThan(key.lastRotated, t.credentialRotationDays))
      this.#add("stale-access-key", subject, "medium", {
        ...who,
        credential: slot,
        lastRotated: key.lastRotated,
        thresholdDays: t.credentialRotationDays,
        description: `${p.name}'s ${slot} was created ${key.lastRotated?.slice(0, 10)} and is still active.`,
      });
    // A key never used counts from its creation: a new key is not flagged on its first day.
    const since = key.lastUsed ?? key.lastRotated;
    if (this.#olderThan(since, t.unusedAccessKeyDays))
      this.#add("unused-access-key", subject, "medium", {
        ...who,
        credential: slot,
        lastUsed: key.lastUsed ?? null,
        thresholdDays: t.unusedAccessKeyDays,
        description: `${p.name}'s active ${slot} has not been used for more than ${t.unusedAccessKeyDays} days.`,
      });
  }

  /** A resource and who reaches it (`summaryOfReach` for a decoded record). */
  addResource(r: Omit<ResourceRecord, "reach">, reach: ReachSummary): void {
    const about = { resourceArn: r.arn, resourceName: r.name, resourceType: r.type };
    const { holders, outside } = reach;
    const max = this.thresholds.maxPrincipalsPerCapability;
    for (const [capability, principals] of holders)
      if (principals > max)
        this.#add("over-accessible-resource", `${r.arn}#${capability}`, "medium", {
          ...about,
          capability,
          principals,
          threshold: max,
          description: `${principals} principals can ${capability} ${r.name} (more than ${max}).`,
        });
    for (const [principal, { type, capabilities }] of outside) {
      const everyone = principal === "*" || type === "Anonymous";
      this.#add("external-access", `${r.arn}#${principal}`, everyone ? "high" : "medium", {
        ...about,
        principal,
        principalType: type,
        capabilities: [...capabilities].sort(),
        description: `${everyone ? "Everyone" : principal} can ${[...capabilities].sort().join(", ")} ${r.name} from outside the account.`,
      });
    }
  }

  findings(): readonly ObservedFinding[] {
    return this.#found;
  }
}

const SEVERITY_ID: Readonly<Record<string, number>> = { low: 2, medium: 3, high: 4 };
const ms = (date: Date) => date.getTime();

/**
 * A stored finding as an OCSF 1.1.0 Detection Finding (class 2004): created when first seen by
 * this analysis, updated when seen again, closed (status Resolved) when this analysis resolved it.
 */
export function ocsfFinding(
  row: FindingRow,
  context: { provider: string; accountId: string; analysisTime: Date },
): FindingReportRow {
  const resolved = row.status === "resolved";
  const activity = resolved ? 3 : ms(row.firstSeen) === ms(context.analysisTime) ? 1 : 2;
  const detail = row.detail as { title?: string; description?: string } & Record<string, unknown>;
  const { title, description, ...unmapped } = detail;
  const principal = typeof unmapped.principalArn === "string" ? unmapped.principalArn : undefined;
  const resource = typeof unmapped.resourceArn === "string" ? unmapped.resourceArn : undefined;
  const name = (unmapped.principalName ?? unmapped.resourceName ?? "") as string;
  const type = (unmapped.principalType ?? unmapped.resourceType ?? "") as string;
  return {
    activity_id: activity,
    category_uid: 2,
    class_uid: 2004,
    type_uid: 2004 * 100 + activity,
    severity_id: SEVERITY_ID[row.severity] ?? 0,
    status_id: resolved ? 4 : activity === 1 ? 1 : 2,
    time: ms(context.analysisTime),
    message: `${title ?? row.kind}: ${description ?? row.subject}`,
    metadata: { version: "1.1.0", product: { name: "Sightline", vendor_name: "Sightline" } },
    finding_info: {
      uid: row.findingId,
      title: title ?? row.kind,
      desc: description ?? "",
      types: [row.kind],
      first_seen_time: ms(row.firstSeen),
      last_seen_time: ms(row.lastSeen),
      ...(row.resolvedAt ? { modified_time: ms(row.resolvedAt) } : {}),
    },
    cloud: {
      provider: context.provider.startsWith("azure") ? "Azure" : "AWS",
      account: { uid: context.accountId },
    },
    resources: [{ uid: resource ?? principal ?? row.subject, type, name }],
    unmapped: { kind: row.kind, subject: row.subject, ...unmapped },
  };
}
