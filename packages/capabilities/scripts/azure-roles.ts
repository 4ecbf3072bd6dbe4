import { readFileSync } from "node:fs";
import { type AzureOperationInfo, listAzureOperations } from "../src/azure-map.ts";
import type { Capability } from "../src/capability.ts";
import { AZURE_BUILT_IN_ROLE_EXCEPTIONS } from "./azure-role-exceptions.ts";
import { matchesActionPattern } from "./managed-policies.ts";
import { AZURE_REFERENCE } from "./reference-paths.ts";

// Azure's built-in roles are labels written by Microsoft. A `… Data Reader` role's data actions
// read data, `Reader` reads configuration only, a `… Data Contributor` role's data actions read,
// write or delete data, and Owner / User Access Administrator administer Microsoft.Authorization.
// This measures the Azure map against those labels.

interface RolePermission {
  actions?: string[];
  notActions?: string[];
  dataActions?: string[];
  notDataActions?: string[];
}
interface RoleDefinition {
  roleName: string;
  permissions: RolePermission[];
}

export interface AzureRoleLabel {
  id: string;
  description: string;
  roles: string[];
  /** Control-plane actions or data actions of the roles. */
  kind: "actions" | "dataActions";
  /** Only operations under this provider are judged (Owner's `*` is everything). */
  provider?: string;
  /** Does the operation's capability set fit the label? */
  fits(op: AzureOperationInfo): boolean;
  /** What the label expects, for the report. */
  expected: string;
  /** Each role must grant at least one operation with one of these capabilities. */
  mustInclude?: readonly Capability[];
}

export interface AzureRoleDisagreement {
  label: string;
  operation: string;
  capabilities: readonly string[];
  roles: string[];
  reason?: string;
}

export interface AzureRoleResult {
  label: AzureRoleLabel;
  /** Distinct operations the roles grant that were judged. */
  compared: number;
  agreeing: number;
  agreement: number;
  disagreements: AzureRoleDisagreement[];
  /**
   * Roles granting nothing of `mustInclude` among the catalogued operations. Informational: the
   * catalogue holds only operations some role or the REST map names, so a wildcard such as
   * `Microsoft.Batch/batchAccounts/jobs/*` may match none of a role's writes.
   */
  rolesMissing: string[];
}

export function readBuiltInRoles(): RoleDefinition[] {
  return JSON.parse(
    readFileSync(new URL("built-in-roles-raw.json", AZURE_REFERENCE), "utf8"),
  ) as RoleDefinition[];
}

const only =
  (...allowed: Capability[]) =>
  (op: AzureOperationInfo) =>
    op.capabilities.length > 0 && op.capabilities.every((c) => allowed.includes(c as Capability));

/** Data Reader roles, without the mixed ones (`… Data Importer and Data Reader`). */
const isDataReader = (name: string) => /\bData Reader\b/.test(name) && !/Importer/.test(name);
const isDataContributor = (name: string) => /\bData Contributor\b/.test(name);
const isAuthorizationRead = (op: AzureOperationInfo) => /\/read$/i.test(op.operation);

export function azureRoleLabels(roles: readonly RoleDefinition[]): AzureRoleLabel[] {
  const names = roles.map((r) => r.roleName).sort();
  return [
    {
      id: "data-reader",
      description: "a … Data Reader role's data actions read data",
      roles: names.filter(isDataReader),
      kind: "dataActions",
      fits: only("read-data"),
      expected: "read-data",
    },
    {
      id: "reader",
      description: "Reader (*/read) reads configuration only",
      roles: ["Reader"],
      kind: "actions",
      fits: only("read-config"),
      expected: "read-config",
    },
    {
      id: "data-contributor",
      description:
        "a … Data Contributor role's data actions read, write or delete data, or use the service (inference, runs), never administer",
      roles: names.filter(isDataContributor),
      kind: "dataActions",
      fits: only("read-data", "write-data", "delete-data", "use-resource"),
      expected: "read-data / write-data / delete-data / use-resource",
      mustInclude: ["write-data", "delete-data"],
    },
    {
      id: "authorization-admin",
      description:
        "Owner and User Access Administrator administer Microsoft.Authorization (its reads are read-config)",
      roles: ["Owner", "User Access Administrator"],
      kind: "actions",
      provider: "Microsoft.Authorization",
      fits: (op) =>
        isAuthorizationRead(op)
          ? only("read-config")(op)
          : op.capabilities.includes("administer-resource"),
      expected: "administer-resource (reads: read-config)",
    },
  ];
}

/** Operations of the map a role grants through `kind`, less its `not…` patterns. */
function grantedOperations(
  role: RoleDefinition,
  kind: "actions" | "dataActions",
  ops: readonly AzureOperationInfo[],
): Set<AzureOperationInfo> {
  const not = kind === "actions" ? "notActions" : "notDataActions";
  const granted = new Set<AzureOperationInfo>();
  for (const p of role.permissions) {
    const allow = p[kind] ?? [];
    const deny = p[not] ?? [];
    for (const op of ops) {
      if (op.isDataAction !== (kind === "dataActions")) continue;
      if (!allow.some((pattern) => matchesActionPattern(pattern, op.operation))) continue;
      if (deny.some((pattern) => matchesActionPattern(pattern, op.operation))) continue;
      granted.add(op);
    }
  }
  return granted;
}

export function runAzureRoleChecks(): AzureRoleResult[] {
  const roles = readBuiltInRoles();
  const ops = listAzureOperations();
  const byName = new Map(roles.map((r) => [r.roleName, r]));
  return azureRoleLabels(roles).map((label) => {
    const grantedBy = new Map<AzureOperationInfo, string[]>();
    const rolesMissing: string[] = [];
    for (const name of label.roles) {
      const role = byName.get(name);
      if (!role) throw new Error(`built-in role ${name} is not in the reference file`);
      let includes = false;
      for (const op of grantedOperations(role, label.kind, ops)) {
        if (label.provider && op.provider !== label.provider) continue;
        grantedBy.set(op, [...(grantedBy.get(op) ?? []), name]);
        if (label.mustInclude?.some((c) => op.capabilities.includes(c))) includes = true;
      }
      if (label.mustInclude && !includes) rolesMissing.push(name);
    }
    const disagreements: AzureRoleDisagreement[] = [];
    let agreeing = 0;
    for (const [op, names] of [...grantedBy].sort(([a], [b]) =>
      a.operation < b.operation ? -1 : 1,
    )) {
      if (label.fits(op)) {
        agreeing++;
        continue;
      }
      const reason = AZURE_BUILT_IN_ROLE_EXCEPTIONS[label.id]?.[op.operation];
      disagreements.push({
        label: label.id,
        operation: op.operation,
        capabilities: op.capabilities,
        roles: names,
        ...(reason ? { reason } : {}),
      });
    }
    const compared = grantedBy.size;
    return {
      label,
      compared,
      agreeing,
      agreement: compared === 0 ? 1 : agreeing / compared,
      disagreements,
      rolesMissing,
    };
  });
}

/** Pooled over the labels: operations judged and agreeing. */
export function pooledAzureAgreement(results: readonly AzureRoleResult[]) {
  const compared = results.reduce((n, r) => n + r.compared, 0);
  const agreeing = results.reduce((n, r) => n + r.agreeing, 0);
  return { compared, agreeing, agreement: agreeing / compared };
}

export function formatAzureRoleResult(r: AzureRoleResult, limit = Infinity): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const unexplained = r.disagreements.filter((d) => !d.reason);
  const lines = [
    `${r.label.id}: ${r.label.description} (${r.label.roles.length} roles): ${r.agreeing}/${r.compared} operations agree (${pct(r.agreement)}), ${r.disagreements.length} disagreements (${unexplained.length} unexplained)`,
  ];
  const shown = [...unexplained, ...r.disagreements.filter((d) => d.reason)].slice(0, limit);
  for (const d of shown) {
    const by = d.roles.length > 2 ? `${d.roles.slice(0, 2).join(", ")}, …` : d.roles.join(", ");
    lines.push(
      `  ${d.operation} [${d.capabilities.join(", ")}] expected ${r.label.expected} (${by}) — ${d.reason ?? "UNEXPLAINED"}`,
    );
  }
  if (shown.length < r.disagreements.length)
    lines.push(`  … and ${r.disagreements.length - shown.length} more`);
  if (r.label.mustInclude)
    lines.push(
      `  roles whose catalogued operations hold no ${r.label.mustInclude.join(" or ")} (their wildcards match no catalogued write): ${r.rolesMissing.join(", ") || "none"}`,
    );
  return lines.join("\n");
}
