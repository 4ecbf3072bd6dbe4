import type { PrincipalType } from "../analyze/analysis-types.ts";
import { type Issue, issueAt } from "../issues.ts";
import { present, readEntries } from "./azure-input-fields.ts";
import type { AzurePrincipal } from "./azure-model.ts";
import {
  type AzureDirectoryObjectInput,
  type AzureSnapshotFrame,
  azureDirectoryObjectSchema,
  azureGroupFrameSchema,
} from "./azure-snapshot.ts";

/** Graph `@odata.type` or `az`'s `principalType` to the report's principal type. */
function directoryType(o: AzureDirectoryObjectInput): PrincipalType | undefined {
  const odata = (o["@odata.type"] ?? "").toLowerCase();
  const sp = (o.servicePrincipalType ?? "").toLowerCase();
  if (odata === "#microsoft.graph.group") return "AzureGroup";
  if (odata === "#microsoft.graph.user") return "AzureUser";
  if (odata === "#microsoft.graph.serviceprincipal" || sp !== "" || o.appId)
    return sp === "managedidentity" ? "AzureManagedIdentity" : "AzureServicePrincipal";
  if (o.userPrincipalName) return "AzureUser";
  return undefined;
}

/** A role assignment's `principalType` to the report's principal type. */
export function assignmentType(principalType: string | undefined): PrincipalType | undefined {
  switch ((principalType ?? "").toLowerCase()) {
    case "user":
      return "AzureUser";
    case "group":
    case "foreigngroup":
      return "AzureGroup";
    case "serviceprincipal":
      return "AzureServicePrincipal";
    case "managedidentity":
      return "AzureManagedIdentity";
    default:
      return undefined;
  }
}

/**
 * The principals of a snapshot: the directory first (its types are exact), then those the
 * role assignments name (`add`); `close` then gives each the groups it belongs to.
 */
export class AzureDirectory {
  readonly principals = new Map<string, AzurePrincipal & { groups: string[] }>();
  private readonly directMembers = new Map<string, string[]>();

  constructor(private readonly issues: Issue[]) {}

  /** Reads `principals` and `groups` (with their members); a malformed one is left out with an issue. */
  read(snapshot: Pick<AzureSnapshotFrame, "principals" | "groups">): void {
    const { issues } = this;
    for (const { entry, path } of readEntries(
      snapshot.principals,
      azureDirectoryObjectSchema,
      "principals",
      "principal",
      issues,
    ))
      this.readDirectoryObject(entry, path);
    for (const { entry, path } of readEntries(
      snapshot.groups,
      azureGroupFrameSchema,
      "groups",
      "group",
      issues,
    )) {
      const group = this.readDirectoryObject(entry, path, "AzureGroup");
      if (group.type !== "AzureGroup") group.type = "AzureGroup";
      const members = this.directMembers.get(group.key) ?? [];
      const field = `${path}.members`;
      for (const member of readEntries(
        entry.members,
        azureDirectoryObjectSchema,
        field,
        "member",
        issues,
      ))
        members.push(this.readDirectoryObject(member.entry, member.path).key);
      this.directMembers.set(group.key, members);
    }
  }

  /** The principal with this object ID, added when first seen (an unknown type is reported). */
  add(id: string, type: PrincipalType | undefined, name: string | undefined, path: string) {
    const key = id.toLowerCase();
    const known = this.principals.get(key);
    if (known) {
      if (name && known.name === known.id) known.name = name;
      return known;
    }
    if (!type)
      this.issues.push(
        issueAt(
          path,
          `principal ${id} has no known type; reported as AzureServicePrincipal`,
          "warning",
        ),
      );
    const p = { id, key, name: name || id, type: type ?? "AzureServicePrincipal", groups: [] };
    this.principals.set(key, p);
    return p;
  }

  private readDirectoryObject(o: AzureDirectoryObjectInput, path: string, type?: PrincipalType) {
    const name = present(o.userPrincipalName) ?? present(o.displayName);
    return this.add(o.id, type ?? directoryType(o), name, path);
  }

  /** Gives every principal its groups, transitively; a cycle (which Entra ID refuses) is reported and cut. */
  close(): void {
    const parents = new Map<string, string[]>();
    for (const [group, members] of this.directMembers)
      for (const m of members) {
        const list = parents.get(m) ?? [];
        if (!list.includes(group)) list.push(group);
        parents.set(m, list);
      }
    const cycles = new Set<string>();
    const closeGroups = (key: string): string[] => {
      const seen = new Set<string>();
      const queue = [...(parents.get(key) ?? [])];
      while (queue.length > 0) {
        const g = queue.shift() as string;
        if (g === key && !cycles.has(key)) {
          cycles.add(key);
          this.issues.push(
            issueAt(
              "groups",
              `group ${key} is a member of itself through nested groups; the cycle is cut`,
              "warning",
            ),
          );
        }
        if (seen.has(g) || g === key) continue;
        seen.add(g);
        queue.push(...(parents.get(g) ?? []));
      }
      return [...seen].sort();
    };
    for (const p of this.principals.values()) p.groups = closeGroups(p.key);
  }
}
