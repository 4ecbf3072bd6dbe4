import type { TokenCredential } from "@azure/core-auth";
import { AppError, mapConcurrent } from "@sightline/domain";
import type {
  AzureDirectoryObjectInput,
  AzureGroupInput,
  AzureRoleDefinitionInput,
  AzureSnapshot,
} from "@sightline/engine";
import type { AzureCloudName, AzureEndpoints } from "../azure-clouds.ts";
import { type AzureHttpOptions, createAzureRestClient } from "../rest/azure-rest-client.ts";
import type { AzureCollectionWarning, CollectedSubscription } from "./collection-types.ts";
import { armReader } from "./read-arm.ts";
import { type GraphPrincipalKind, graphKindOf, graphReader, toGroup } from "./read-graph.ts";

export interface CollectSubscriptionInput {
  readonly subscriptionId: string;
  /** The tenant Sightline signed in to; the subscription must belong to it. */
  readonly tenantId?: string;
  readonly cloud: AzureCloudName;
  /** Sightline's application in the tenant (`createAppCredential`) or vended tokens. */
  readonly credential: TokenCredential;
  readonly endpoints: AzureEndpoints;
  readonly http?: AzureHttpOptions;
  /** Requests at once (Graph lookups, group members). Default 4. */
  readonly concurrency?: number;
  readonly now?: () => Date;
}

/** The all-principals entry of deny assignments: not a directory object. */
const EVERYONE = "00000000-0000-0000-0000-000000000000";
const GUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const guidOf = (id: string) => GUID.exec(id)?.[1]?.toLowerCase();

/**
 * Collects one subscription's access configuration into the engine's `AzureSnapshot`:
 * ARM (role definitions, role assignments at every scope that applies, deny assignments,
 * resource groups, resources, the management groups above) and Microsoft Graph (the principals
 * holding assignments, and each assigned group's transitive members). Reading the role
 * configuration or group members refused fails (`ACCESS_DENIED`, naming the permission);
 * the inventory, the management groups and principal names refused are warnings.
 */
export async function collectSubscription(
  input: CollectSubscriptionInput,
): Promise<CollectedSubscription> {
  const now = input.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const concurrency = input.concurrency ?? 4;
  const warnings: AzureCollectionWarning[] = [];
  const { endpoints } = input;
  const arm = armReader(
    createAzureRestClient({
      credential: input.credential,
      scope: endpoints.armScope,
      ...(input.http ? { http: input.http } : {}),
    }),
    endpoints.armUrl,
    input.subscriptionId,
  );
  const graph = graphReader(
    createAzureRestClient({
      credential: input.credential,
      scope: endpoints.graphScope,
      ...(input.http ? { http: input.http } : {}),
    }),
    endpoints.graphUrl,
    concurrency,
  );

  const subscription = await arm.subscription();
  if (input.tenantId && subscription.tenantId && subscription.tenantId !== input.tenantId)
    throw new AppError(
      "CREDENTIAL_INVALID",
      `Subscription ${input.subscriptionId} belongs to tenant ${subscription.tenantId}, not to the configured tenant ${input.tenantId}: correct auditorAuthConfig.tenantId`,
    );

  const optional = async <T>(read: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "ACCESS_DENIED") throw error;
      warnings.push({ kind: "access-denied", message: error.message });
      return [];
    }
  };
  const [roleDefinitions, roleAssignments, denyAssignments, resourceGroups, resources, ancestors] =
    await Promise.all([
      arm.roleDefinitions(),
      arm.roleAssignments(),
      arm.denyAssignments(),
      optional(() => arm.resourceGroups()),
      optional(() => arm.resources()),
      arm.managementGroupAncestors(warnings),
    ]);

  // An assignment inherited from a management group may name a custom role defined there,
  // which the subscription's list does not show: read those by ID.
  const known = new Set(roleDefinitions.flatMap((d) => guidOf(d.id) ?? []));
  const missing = [...new Set(roleAssignments.map((a) => a.roleDefinitionId))].filter((id) => {
    const guid = guidOf(id);
    return guid !== undefined && !known.has(guid);
  });
  const extra = await mapConcurrent(missing, concurrency, async (id) => {
    try {
      const definition = await arm.roleDefinition(id);
      known.add(guidOf(definition.id) ?? "");
      return definition;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "ACCESS_DENIED") throw error;
      warnings.push({ kind: "role-definition-not-found", message: error.message, resourceId: id });
      return undefined;
    }
  });
  const definitions: AzureRoleDefinitionInput[] = [
    ...roleDefinitions,
    ...extra.flatMap((d) => d ?? []),
  ];
  const roleNames = new Map(definitions.map((d) => [guidOf(d.id), d.roleName]));

  // Principals: every assignee, and every principal a deny assignment names or excludes.
  const byKind = new Map<GraphPrincipalKind, Set<string>>();
  const wanted = (type: string | null | undefined, id: string) => {
    const kind = graphKindOf(type);
    if (!kind || id === EVERYONE) return;
    const set = byKind.get(kind) ?? new Set<string>();
    set.add(id);
    byKind.set(kind, set);
  };
  for (const a of roleAssignments) wanted(a.principalType, a.principalId);
  for (const d of denyAssignments) {
    const p = d.properties ?? d;
    for (const principal of [...(p.principals ?? []), ...(p.excludePrincipals ?? [])])
      wanted(principal.type, principal.id);
  }

  const found = new Map<string, AzureDirectoryObjectInput>();
  for (const [kind, ids] of byKind)
    for (const object of await graph.principals(kind, [...ids], warnings))
      found.set(object.id, object);
  for (const [kind, ids] of byKind)
    for (const id of ids)
      if (!found.has(id))
        warnings.push({
          kind: "principal-not-found",
          message: `${kind} ${id}, named by a role or deny assignment, is not in the directory (deleted, or of another tenant)`,
          resourceId: id,
        });

  const groupIds = [...(byKind.get("Group") ?? [])];
  const memberLists = await mapConcurrent(groupIds, concurrency, (id) =>
    graph.transitiveMembers(id),
  );
  const groups: AzureGroupInput[] = groupIds.map((id, i) =>
    toGroup(found.get(id) ?? { id, "@odata.type": "#microsoft.graph.group" }, memberLists[i] ?? []),
  );
  const principals = new Map(found);
  for (const members of memberLists)
    for (const member of members) if (!principals.has(member.id)) principals.set(member.id, member);

  const snapshot: AzureSnapshot = {
    subscriptionId: input.subscriptionId,
    ...((input.tenantId ?? subscription.tenantId)
      ? { tenantId: input.tenantId ?? subscription.tenantId }
      : {}),
    cloud: input.cloud,
    ...(ancestors ? { managementGroupAncestors: ancestors } : {}),
    roleDefinitions: definitions,
    roleAssignments: roleAssignments.map((a) => {
      const principal = found.get(a.principalId);
      const principalName = principal?.userPrincipalName ?? principal?.displayName;
      const roleName = roleNames.get(guidOf(a.roleDefinitionId));
      return {
        ...a,
        ...(principalName ? { principalName } : {}),
        ...(roleName ? { roleDefinitionName: roleName } : {}),
      };
    }),
    denyAssignments,
    principals: [...principals.values()],
    groups,
    resourceGroups,
    resources,
  };
  return {
    snapshot,
    metadata: {
      provider: "azure",
      cloud: input.cloud,
      subscriptionId: input.subscriptionId,
      ...(subscription.displayName ? { subscriptionName: subscription.displayName } : {}),
      ...(snapshot.tenantId ? { tenantId: snapshot.tenantId } : {}),
      startedAt,
      finishedAt: now().toISOString(),
      counts: {
        roleDefinitions: definitions.length,
        roleAssignments: roleAssignments.length,
        denyAssignments: denyAssignments.length,
        principals: principals.size,
        groups: groups.length,
        resourceGroups: resourceGroups.length,
        resources: resources.length,
      },
    },
    warnings,
  };
}
