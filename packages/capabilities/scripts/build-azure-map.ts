import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AzureMapFile, AzureOperationRow } from "../src/azure-map-file.ts";
import { compareActionNames } from "../src/capability.ts";
import { classifyAzureOperation } from "../src/classify-azure-operation.ts";
import { AZURE_REFERENCE } from "./reference-paths.ts";

interface RolePermission {
  actions?: string[];
  notActions?: string[];
  dataActions?: string[];
  notDataActions?: string[];
}
interface RoleDefinition {
  permissions: RolePermission[];
}
type PermissionMap = Record<string, Record<string, Record<string, unknown>>>;

const ROLES_FILE = "built-in-roles-raw.json";
const MAP_FILE = "rest-api-permission-map.json";

/** A usable operation name: provider/…/verb with no wildcard and no empty segment. */
function cleanOperation(raw: string): string | undefined {
  const op = raw.trim();
  if (op.includes("*") || !op.includes("/") || op.split("/").some((s) => s === ""))
    return undefined;
  return op;
}

/** Every wildcard-free operation of the two reference files, classified, keyed by provider. */
export function buildAzureMap(): AzureMapFile {
  const rolesText = readFileSync(new URL(ROLES_FILE, AZURE_REFERENCE), "utf8");
  const mapText = readFileSync(new URL(MAP_FILE, AZURE_REFERENCE), "utf8");
  const roles = JSON.parse(rolesText) as RoleDefinition[];
  const restMap = JSON.parse(mapText) as PermissionMap;

  // Names compare without case; the first spelling met (data actions, then actions, then the
  // REST map, each sorted) is kept, so the choice is stable.
  const dataOps: string[] = [];
  const controlOps: string[] = [];
  for (const role of roles) {
    for (const p of role.permissions) {
      dataOps.push(...(p.dataActions ?? []), ...(p.notDataActions ?? []));
      controlOps.push(...(p.actions ?? []), ...(p.notActions ?? []));
    }
  }
  for (const paths of Object.values(restMap)) {
    for (const perms of Object.values(paths)) controlOps.push(...Object.keys(perms));
  }
  const spelling = new Map<string, string>();
  const dataLower = new Set<string>();
  for (const [list, isData] of [
    [dataOps, true],
    [controlOps, false],
  ] as const) {
    for (const raw of [...list].sort()) {
      const op = cleanOperation(raw);
      if (!op) continue;
      const lower = op.toLowerCase();
      if (!spelling.has(lower)) spelling.set(lower, op);
      if (isData) dataLower.add(lower);
    }
  }

  const providerSpelling = chooseProviderSpellings([...spelling.values()]);
  const providers: Record<string, Record<string, AzureOperationRow>> = {};
  const ops = [...spelling.entries()].sort(([, a], [, b]) => compareActionNames(a, b));
  const byProvider = new Map<string, [string, AzureOperationRow][]>();
  for (const [lower, op] of ops) {
    const isDataAction = dataLower.has(lower);
    const provider = providerSpelling.get(lower.split("/")[0] ?? "") ?? op;
    const { capabilities } = classifyAzureOperation({ operation: op, isDataAction });
    const rows = byProvider.get(provider) ?? [];
    rows.push([op, [isDataAction ? "data" : "control", capabilities]]);
    byProvider.set(provider, rows);
  }
  for (const provider of [...byProvider.keys()].sort(compareActionNames)) {
    providers[provider] = Object.fromEntries(byProvider.get(provider) ?? []);
  }
  return {
    source: {
      files: { [ROLES_FILE]: sha256(rolesText), [MAP_FILE]: sha256(mapText) },
      note: "packages/capabilities/reference/azure (iann0036/iam-dataset); see its README",
    },
    providers,
  };
}

/** The most frequent spelling of each provider namespace (ties: the first in code-unit order). */
function chooseProviderSpellings(ops: string[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const op of ops) {
    const name = op.split("/")[0] ?? op;
    const forms = counts.get(name.toLowerCase()) ?? new Map<string, number>();
    forms.set(name, (forms.get(name) ?? 0) + 1);
    counts.set(name.toLowerCase(), forms);
  }
  const chosen = new Map<string, string>();
  for (const [lower, forms] of counts) {
    const best = [...forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    chosen.set(lower, best?.[0] ?? lower);
  }
  return chosen;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
