import type { IncomingMessage, ServerResponse } from "node:http";
import { caller, type FakeAzureContext, json, PUBLIC_CLOUD_SCOPES, page } from "./fake-http.ts";
import type { FakeApp, FakeAzureModel } from "./fake-model.ts";

const graphError = (code: string, message: string) => ({ error: { code, message } });

/** Graph permissions that include reading these. */
const GRAPH_READS = {
  users: ["User.Read.All", "User.ReadBasic.All", "Directory.Read.All"],
  groups: ["GroupMember.Read.All", "Group.Read.All", "Directory.Read.All"],
  servicePrincipals: ["Application.Read.All", "Directory.Read.All"],
} as const;

const objectOf = (model: FakeAzureModel, id: string, app: FakeApp | undefined) => {
  const may = (what: keyof typeof GRAPH_READS) =>
    GRAPH_READS[what].some((perm) => app?.graphPermissions.includes(perm));
  const user = model.users.find((u) => u.id === id);
  if (user)
    return may("users")
      ? { "@odata.type": "#microsoft.graph.user", ...user }
      : { "@odata.type": "#microsoft.graph.user", id };
  const sp = model.servicePrincipals.find((s) => s.id === id);
  if (sp)
    return may("servicePrincipals")
      ? { "@odata.type": "#microsoft.graph.servicePrincipal", ...sp }
      : { "@odata.type": "#microsoft.graph.servicePrincipal", id };
  const group = model.groups.find((g) => g.id === id);
  if (group) return { "@odata.type": "#microsoft.graph.group", id, displayName: group.displayName };
  return undefined;
};

function transitive(model: FakeAzureModel, groupId: string): string[] {
  const seen = new Set<string>();
  const walk = (id: string) => {
    for (const member of model.groups.find((g) => g.id === id)?.memberIds ?? []) {
      if (seen.has(member)) continue;
      seen.add(member);
      walk(member);
    }
  };
  walk(groupId);
  return [...seen];
}

/**
 * Microsoft Graph: users, groups and service principals by ID, and a group's transitive members,
 * each behind the Graph permissions that include reading it. Answers and returns the status.
 */
export function graph(
  ctx: FakeAzureContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): number {
  const { model } = ctx;
  const who = caller(ctx, req, PUBLIC_CLOUD_SCOPES.graphScope);
  if (!who) {
    json(res, 401, graphError("InvalidAuthenticationToken", "Access token validation failure."));
    return 401;
  }
  const app = model.apps.find((a) => a.clientId === who.clientId);
  const refuse = () => {
    json(
      res,
      403,
      graphError(
        "Authorization_RequestDenied",
        "Insufficient privileges to complete the operation.",
      ),
    );
    return 403;
  };
  const p = url.pathname.replace(/^\/graph/, "");
  const members = /^\/v1\.0\/groups\/([0-9a-f-]{36})\/transitiveMembers$/i.exec(p);
  if (members) {
    if (!GRAPH_READS.groups.some((perm) => app?.graphPermissions.includes(perm))) return refuse();
    const id = members[1] ?? "";
    if (!model.groups.some((g) => g.id === id)) {
      json(res, 404, graphError("Request_ResourceNotFound", `Resource '${id}' does not exist.`));
      return 404;
    }
    const objects = transitive(model, id).flatMap((m) => objectOf(model, m, app) ?? []);
    json(res, 200, page(ctx, url, objects, "@odata.nextLink"));
    return 200;
  }
  const collection = /^\/v1\.0\/(users|groups|servicePrincipals)$/.exec(p)?.[1] as
    | keyof typeof GRAPH_READS
    | undefined;
  if (collection) {
    if (!GRAPH_READS[collection].some((perm) => app?.graphPermissions.includes(perm)))
      return refuse();
    const filter = url.searchParams.get("$filter") ?? "";
    const ids = /^id in \((.*)\)$/
      .exec(filter)?.[1]
      ?.match(/'[^']*'/g)
      ?.map((s) => s.slice(1, -1));
    if (!ids || ids.length > 15) {
      json(
        res,
        400,
        graphError("Request_UnsupportedQuery", "Unsupported or too many values in the filter."),
      );
      return 400;
    }
    const all =
      collection === "users"
        ? model.users
        : collection === "servicePrincipals"
          ? model.servicePrincipals
          : model.groups.map((g) => ({ id: g.id, displayName: g.displayName }));
    const wanted = all.filter((o) => ids.includes(o.id));
    json(res, 200, page(ctx, url, wanted, "@odata.nextLink"));
    return 200;
  }
  json(res, 404, graphError("Request_ResourceNotFound", `No route for ${p}`));
  return 404;
}
