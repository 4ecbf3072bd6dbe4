import { readFile } from "node:fs/promises";
import type { AzureSnapshot } from "@sightline/engine";

/** The files of one Azure subscription, as `az` and Microsoft Graph export them. */
export interface AzureFiles {
  /** One file holding a whole `AzureSnapshot` (what the collector stores). */
  snapshot?: string;
  subscriptionId?: string;
  /** `az role definition list` (built-in and custom roles). */
  roleDefinitions?: string;
  /** `az role assignment list --all --include-inherited`. */
  roleAssignments?: string;
  /** `az rest --url …/providers/Microsoft.Authorization/denyAssignments?api-version=2022-04-01`. */
  denyAssignments?: string;
  /** Groups with their members: `[{ id, displayName, members: [...] }]` (Graph `transitiveMembers`). */
  groups?: string;
  /** Users and service principals (Graph `/users`, `/servicePrincipals`). */
  principals?: string;
  /** `az group list`. */
  resourceGroups?: string;
  /** `az resource list`. */
  resources?: string;
  /** The management groups above the subscription, root first. */
  managementGroups?: readonly string[];
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, "utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

/** A JSON list, or an ARM / Graph page (`{ "value": [...] }`), as `az rest` prints it. */
async function readList(file: string, what: string): Promise<unknown[]> {
  const value = await readJson(file);
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object" && Array.isArray((value as { value?: unknown }).value))
    return (value as { value: unknown[] }).value;
  throw new Error(`${file}: expected a JSON list of ${what}, or { "value": [...] }`);
}

/**
 * Reads an Azure subscription from the files on the command line: one `--azure-snapshot`, or
 * the `az` exports one by one (then `--subscription` names the subscription). The engine
 * validates the contents and names the field at fault.
 */
export async function loadAzureSnapshot(files: AzureFiles): Promise<AzureSnapshot> {
  if (files.snapshot) {
    const value = await readJson(files.snapshot);
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new Error(`${files.snapshot}: expected an AzureSnapshot object`);
    const snapshot = value as AzureSnapshot;
    return {
      ...snapshot,
      ...(files.subscriptionId ? { subscriptionId: files.subscriptionId } : {}),
      ...(files.managementGroups ? { managementGroupAncestors: files.managementGroups } : {}),
    };
  }
  const optional = async (file: string | undefined, what: string) =>
    file ? await readList(file, what) : undefined;
  const [
    roleDefinitions,
    roleAssignments,
    denyAssignments,
    groups,
    principals,
    groupsOfRg,
    resources,
  ] = await Promise.all([
    readList(files.roleDefinitions as string, "role definitions"),
    readList(files.roleAssignments as string, "role assignments"),
    optional(files.denyAssignments, "deny assignments"),
    optional(files.groups, "groups"),
    optional(files.principals, "users and service principals"),
    optional(files.resourceGroups, "resource groups"),
    optional(files.resources, "resources"),
  ]);
  return {
    subscriptionId: files.subscriptionId as string,
    roleDefinitions: roleDefinitions as AzureSnapshot["roleDefinitions"],
    roleAssignments: roleAssignments as AzureSnapshot["roleAssignments"],
    ...(files.managementGroups ? { managementGroupAncestors: files.managementGroups } : {}),
    ...(denyAssignments
      ? { denyAssignments: denyAssignments as AzureSnapshot["denyAssignments"] }
      : {}),
    ...(groups ? { groups: groups as AzureSnapshot["groups"] } : {}),
    ...(principals ? { principals: principals as AzureSnapshot["principals"] } : {}),
    ...(groupsOfRg ? { resourceGroups: groupsOfRg as AzureSnapshot["resourceGroups"] } : {}),
    ...(resources ? { resources: resources as AzureSnapshot["resources"] } : {}),
  };
}
