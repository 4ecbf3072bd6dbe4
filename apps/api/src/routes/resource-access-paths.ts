import { createRoute } from "@hono/zod-openapi";
import {
  MonitoredAccountPath,
  ResourceAccessPathsRequest,
  ResourceAccessPathsResponse,
} from "@sightline/domain";
import { resourceAccessPaths } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { partnerScope } from "../scopes.ts";

/** Endpoint 12. */
export const resourceAccessPathsRoute = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/resource-access-paths",
    operationId: "generateResourceAccessPaths",
    summary: "Generate resource access paths",
    description:
      "Who can use each resource with the given capabilities, directly or by assuming roles, in and across the partner customer's analysed accounts (section 4.10). Each path lists principal ARNs or account IDs, the first adjacent to the resource; every starting point is its own entry. `service` is `STS` for roles (the contract), or `S3` and `KMS` for buckets and keys (extensions). Answers from the newest analysis of each AWS account: an account never analysed answers 409; an Azure subscription answers 400 (no paths are defined for Azure yet). Extensions in the answer: `conditional` on a path whose edges hold only under conditions, `complete: false` when a resource had more than 10,000 entries and the list was cut.",
    tags: ["Analyses"],
    request: {
      params: MonitoredAccountPath,
      ...jsonBody(ResourceAccessPathsRequest, "The resources, capabilities and limits"),
    },
    responses: {
      200: ok(ResourceAccessPathsResponse, "The paths, keyed by resource ID"),
      ...errorsOf(403, 404, 409, ...bodyErrors),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) =>
      `generate resource access paths for account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const answer = await resourceAccessPaths(deps.services, deps.accessPaths, {
      ...params,
      request: c.req.valid("json"),
    });
    return c.json(answer, 200);
  },
});
