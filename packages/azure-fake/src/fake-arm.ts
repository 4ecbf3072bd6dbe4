import type { IncomingMessage, ServerResponse } from "node:http";
import { caller, type FakeAzureContext, json, PUBLIC_CLOUD_SCOPES, page } from "./fake-http.ts";
import type { FakeAzureModel } from "./fake-model.ts";

const armError = (code: string, message: string) => ({ error: { code, message } });

const armRoleDefinition = (d: FakeAzureModel["roleDefinitions"][number]) => ({
  id: d.id,
  name: d.name,
  type: "Microsoft.Authorization/roleDefinitions",
  properties: {
    roleName: d.roleName,
    type: d.roleType ?? "CustomRole",
    description: d.description ?? "",
    assignableScopes: d.assignableScopes ?? [],
    permissions: d.permissions,
  },
});
const armRoleAssignment = (a: FakeAzureModel["roleAssignments"][number]) => ({
  id: a.id,
  name: a.name ?? a.id.slice(a.id.lastIndexOf("/") + 1),
  type: "Microsoft.Authorization/roleAssignments",
  properties: {
    roleDefinitionId: a.roleDefinitionId,
    principalId: a.principalId,
    principalType: a.principalType ?? "User",
    scope: a.scope,
    condition: a.condition ?? null,
    conditionVersion: a.conditionVersion ?? null,
    createdOn: "2026-01-01T00:00:00Z",
  },
});
const armResource = (r: FakeAzureModel["resources"][number]) => ({
  id: r.id,
  name: r.name ?? r.id.slice(r.id.lastIndexOf("/") + 1),
  type: r.type,
  location: r.location ?? "westeurope",
  tags: r.tags ?? {},
});

/**
 * Azure Resource Manager: the subscription, role definitions and assignments, deny assignments,
 * resource groups, resources and management-group entities. Answers and returns the status.
 */
export function arm(
  ctx: FakeAzureContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): number {
  const { model } = ctx;
  const sub = () => `/subscriptions/${model.subscriptionId}`;
  const inChain = (scope: string) => {
    const s = scope.toLowerCase();
    if (s === "/") return true;
    if (s === sub().toLowerCase() || s.startsWith(`${sub().toLowerCase()}/`)) return true;
    return model.managementGroupChain.some(
      (mg) => s === `/providers/microsoft.management/managementgroups/${mg.toLowerCase()}`,
    );
  };
  const who = caller(ctx, req, PUBLIC_CLOUD_SCOPES.armScope);
  if (!who) {
    json(res, 401, armError("InvalidAuthenticationToken", "The access token is invalid."));
    return 401;
  }
  const app = model.apps.find((a) => a.clientId === who.clientId);
  if (!url.searchParams.get("api-version")) {
    json(
      res,
      400,
      armError("MissingApiVersionParameter", "The api-version query parameter is required."),
    );
    return 400;
  }
  const denied = (action: string, scope: string) => {
    json(
      res,
      403,
      armError(
        "AuthorizationFailed",
        `The client '${who.clientId}' with object id '${who.clientId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid.`,
      ),
    );
    return 403;
  };
  const p = url.pathname.replace(/^\/arm/, "");
  const lower = p.toLowerCase();
  if (req.method === "POST" && lower === "/providers/microsoft.management/getentities") {
    if (app?.managementGroupsReadable === false)
      return denied("Microsoft.Management/getEntities/action", "/");
    const chain = model.managementGroupChain;
    const entities = [
      ...chain.map((mg, i) => ({
        id: `/providers/Microsoft.Management/managementGroups/${mg}`,
        type: "Microsoft.Management/managementGroups",
        name: mg,
        properties: { parentNameChain: chain.slice(0, i) },
      })),
      {
        id: `/subscriptions/${model.subscriptionId}`,
        type: "/subscriptions",
        name: model.subscriptionId,
        properties: { parentNameChain: [...chain] },
      },
    ];
    const filter = /name eq '([^']+)'/.exec(url.searchParams.get("$filter") ?? "")?.[1];
    const listed = filter ? entities.filter((e) => e.name === filter) : entities;
    json(res, 200, page(ctx, url, listed, "nextLink"));
    return 200;
  }
  if (req.method !== "GET") {
    json(res, 405, armError("MethodNotAllowed", "method"));
    return 405;
  }
  // A role definition by ID, wherever it is defined.
  const byId = /\/providers\/microsoft\.authorization\/roledefinitions\/([0-9a-f-]{36})$/.exec(
    lower,
  );
  if (byId) {
    if (app?.reader === false) return denied("Microsoft.Authorization/roleDefinitions/read", p);
    const found = model.roleDefinitions.find((d) => d.name.toLowerCase() === byId[1]);
    if (!found) {
      json(
        res,
        404,
        armError("RoleDefinitionDoesNotExist", "The specified role definition does not exist."),
      );
      return 404;
    }
    json(res, 200, armRoleDefinition(found));
    return 200;
  }
  if (!lower.startsWith(sub().toLowerCase())) {
    json(
      res,
      404,
      armError("SubscriptionNotFound", `The subscription '${p.split("/")[2]}' could not be found.`),
    );
    return 404;
  }
  const rest = lower.slice(sub().length);
  const actions: Record<string, string> = {
    "": "Microsoft.Resources/subscriptions/read",
    "/providers/microsoft.authorization/roledefinitions":
      "Microsoft.Authorization/roleDefinitions/read",
    "/providers/microsoft.authorization/roleassignments":
      "Microsoft.Authorization/roleAssignments/read",
    "/providers/microsoft.authorization/denyassignments":
      "Microsoft.Authorization/denyAssignments/read",
    "/resourcegroups": "Microsoft.Resources/subscriptions/resourceGroups/read",
    "/resources": "Microsoft.Resources/subscriptions/resources/read",
  };
  const action = actions[rest];
  if (action === undefined) {
    json(res, 404, armError("InvalidResourceType", `No route for ${p}`));
    return 404;
  }
  if (app?.reader === false) return denied(action, sub());
  let items: unknown[];
  switch (rest) {
    case "":
      json(res, 200, {
        id: sub(),
        subscriptionId: model.subscriptionId,
        tenantId: model.tenantId,
        displayName: model.subscriptionName,
        state: "Enabled",
      });
      return 200;
    case "/providers/microsoft.authorization/roledefinitions":
      items = model.roleDefinitions
        .filter((d) => (d.assignableScopes ?? []).some(inChain))
        .filter((d) =>
          (d.assignableScopes ?? []).some(
            (s) => s === "/" || s.toLowerCase().startsWith(sub().toLowerCase()),
          ),
        )
        .map((d) => ({
          ...armRoleDefinition(d),
          id: `${sub()}/providers/Microsoft.Authorization/roleDefinitions/${d.name}`,
        }));
      break;
    case "/providers/microsoft.authorization/roleassignments":
      items = model.roleAssignments.filter((a) => inChain(a.scope)).map(armRoleAssignment);
      break;
    case "/providers/microsoft.authorization/denyassignments":
      items = model.denyAssignments.filter((d) => inChain(d.properties?.scope ?? d.scope ?? ""));
      break;
    case "/resourcegroups":
      items = model.resourceGroups.map(armResource);
      break;
    default:
      items = model.resources.map(armResource);
  }
  json(res, 200, page(ctx, url, items, "nextLink"));
  return 200;
}
