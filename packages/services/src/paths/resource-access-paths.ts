import { getPartnerCustomer, latestSnapshotsOfCustomer, type StoredSnapshot } from "@sightline/db";
import {
  AppError,
  AzureSubscriptionId,
  invalidInput,
  type ResourceAccessPathsRequest,
  type ResourceAccessPathsResponse,
} from "@sightline/domain";
import type { AccessGraph, AccountModel } from "@sightline/engine";
import type { ServiceContext } from "../context.ts";
import { isAzureCollection, readCollection } from "../snapshots/stored-collection.ts";
import type { AccessGraphCache } from "./access-graph-cache.ts";

export interface BuiltGraph {
  model: AccountModel;
  graph: AccessGraph;
}

async function buildGraph(snapshots: readonly StoredSnapshot[]): Promise<BuiltGraph> {
  const { buildAccessGraph, createAccountModel } = await import("@sightline/engine");
  // Access paths are chains of AWS roles: a customer's Azure subscriptions take no part.
  const collected = (await Promise.all(snapshots.map(readCollection))).flatMap((c) =>
    isAzureCollection(c) ? [] : [c],
  );
  const model = createAccountModel(collected.map((c) => c.snapshot));
  return { model, graph: buildAccessGraph(model) };
}

/**
 * Endpoint 12: the access paths to each resource, over the newest snapshots of every account of
 * the partner customer together, so that chains cross its accounts. The account of the path
 * must have been analysed at least once.
 */
export async function resourceAccessPaths(
  ctx: ServiceContext,
  graphs: AccessGraphCache<BuiltGraph>,
  input: {
    partnerId: string;
    partnerCustomerId: string;
    accountId: string;
    request: ResourceAccessPathsRequest;
  },
): Promise<ResourceAccessPathsResponse> {
  if (AzureSubscriptionId.safeParse(input.accountId).success)
    throw invalidInput("request", [
      {
        path: "accountId",
        message: `is an Azure subscription: resource access paths are defined for AWS accounts only, through the services STS, S3 and KMS (service '${input.request.service}' of an AWS account); none are defined for Azure yet`,
      },
    ]);
  const customer = await getPartnerCustomer(ctx.db, input);
  if (!customer)
    throw new AppError(
      "NOT_FOUND",
      `Customer ${input.partnerCustomerId} of partner ${input.partnerId} is not configured: PUT /partner/${input.partnerId}/customer/${input.partnerCustomerId} first`,
    );
  const snapshots = (await latestSnapshotsOfCustomer(ctx.db, customer.customerId)).filter(
    (s) => !AzureSubscriptionId.safeParse(s.accountId).success,
  );
  if (!snapshots.some((s) => s.accountId === input.accountId))
    throw new AppError(
      "CONFLICT",
      `Account ${input.accountId} has not been analysed yet: trigger an analysis (POST /partner/${input.partnerId}/customer/${input.partnerCustomerId}/account/${input.accountId}/analysis) and ask again once it has succeeded`,
    );
  const key = [customer.customerId, ...snapshots.map((s) => s.executionId).sort()].join("|");
  const { model, graph } = await graphs.get(key, () => buildGraph(snapshots));
  const { findResourceAccessPaths } = await import("@sightline/engine");
  const { request } = input;
  const answer: ResourceAccessPathsResponse["resourceAccessPaths"] = {};
  for (const resourceId of request.resourceIds) {
    answer[resourceId] = findResourceAccessPaths(graph, model, resourceId, {
      service: request.service,
      capabilities: request.principalAccessCapabilities,
      operator: request.accessCapabilityOperator,
      maxAccessPathNodes: request.maxAccessPathNodes,
    });
  }
  return { resourceAccessPaths: answer };
}
