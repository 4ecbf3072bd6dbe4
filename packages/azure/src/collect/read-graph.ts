import { AppError, mapConcurrent } from "@sightline/domain";
import type { AzureDirectoryObjectInput, AzureGroupInput } from "@sightline/engine";
import type { AzureRestClient } from "../rest/azure-rest-client.ts";
import type { AzureCollectionWarning } from "./collection-types.ts";

/** Graph's `$filter=id in (…)` takes at most 15 values. */
export const GRAPH_ID_FILTER_SIZE = 15;

/**
 * The Microsoft Graph application permissions Sightline's application needs: the least that
 * reads group membership (transitively) and the principals' names and kinds. The deploy
 * templates grant exactly these (a test keeps them equal).
 */
export const GRAPH_APPLICATION_PERMISSIONS = [
  "GroupMember.Read.All",
  "User.Read.All",
  "Application.Read.All",
] as const;

/** Per principal type of a role assignment: the Graph collection and the permission it needs. */
const COLLECTIONS = {
  User: {
    path: "users",
    odataType: "#microsoft.graph.user",
    select: "id,displayName,userPrincipalName",
    permission: "the Graph application permission User.Read.All",
  },
  Group: {
    path: "groups",
    odataType: "#microsoft.graph.group",
    select: "id,displayName",
    permission: "the Graph application permission GroupMember.Read.All",
  },
  ServicePrincipal: {
    path: "servicePrincipals",
    odataType: "#microsoft.graph.servicePrincipal",
    select: "id,displayName,appId,servicePrincipalType",
    permission: "the Graph application permission Application.Read.All",
  },
} as const;
export type GraphPrincipalKind = keyof typeof COLLECTIONS;

/** `User`, `Group`, `ServicePrincipal` (managed identities are service principals). */
export function graphKindOf(
  principalType: string | null | undefined,
): GraphPrincipalKind | undefined {
  const type = (principalType ?? "").toLowerCase();
  if (type === "user") return "User";
  if (type === "group") return "Group";
  if (type === "serviceprincipal" || type === "msi") return "ServicePrincipal";
  return undefined;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const isAccessDenied = (error: unknown) =>
  error instanceof AppError && error.code === "ACCESS_DENIED";

export interface GraphReader {
  /** The directory objects of these IDs; a refused lookup is a warning, the IDs stay unnamed. */
  principals(
    kind: GraphPrincipalKind,
    ids: readonly string[],
    warnings: AzureCollectionWarning[],
  ): Promise<AzureDirectoryObjectInput[]>;
  /** A group's transitive members. Refused is an error: access through groups would be lost. */
  transitiveMembers(groupId: string): Promise<AzureDirectoryObjectInput[]>;
}

export function graphReader(
  graph: AzureRestClient,
  graphUrl: string,
  concurrency: number,
): GraphReader {
  const base = `${graphUrl}/v1.0`;
  return {
    async principals(kind, ids, warnings) {
      const collection = COLLECTIONS[kind];
      const pages = await mapConcurrent(
        chunks(ids, GRAPH_ID_FILTER_SIZE),
        concurrency,
        async (chunk) => {
          const filter = `id in (${chunk.map((id) => `'${id}'`).join(",")})`;
          const url = `${base}/${collection.path}?$filter=${encodeURIComponent(filter)}&$select=${collection.select}`;
          try {
            return await graph.listAll<AzureDirectoryObjectInput>(url, {
              what: `the ${collection.path} holding role assignments`,
              permission: collection.permission,
            });
          } catch (error) {
            if (!isAccessDenied(error)) throw error;
            return error as AppError;
          }
        },
      );
      const denied = pages.find((page): page is AppError => page instanceof AppError);
      if (denied)
        warnings.push({
          kind: "access-denied",
          message: `${denied.message}; those principals are reported by ID only`,
        });
      return pages
        .flatMap((page) => (page instanceof AppError ? [] : page))
        .map((object) => ({ "@odata.type": collection.odataType, ...object }));
    },
    transitiveMembers: (groupId) =>
      graph.listAll<AzureDirectoryObjectInput>(
        `${base}/groups/${groupId}/transitiveMembers?$top=999`,
        {
          what: `the transitive members of group ${groupId}`,
          permission: COLLECTIONS.Group.permission,
        },
      ),
  };
}

/** Groups with their members, for the snapshot. */
export function toGroup(
  group: AzureDirectoryObjectInput,
  members: readonly AzureDirectoryObjectInput[],
): AzureGroupInput {
  return { ...group, members: [...members] };
}
