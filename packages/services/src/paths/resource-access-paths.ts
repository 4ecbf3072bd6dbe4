import { getPartnerCustomer, latestSnapshotIdsOfCustomer, snapshotDataOf } from "@sightline/db";
import {
  AppError,
  AzureSubscriptionId,
  invalidInput,
  type ResourceAccessPathsRequest,
  type ResourceAccessPathsResponse,
} from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import type { AccessPaths } from "./access-path-threads.ts";

/** Snapshots read per query when a graph is built (a 100,000-role customer has 500). */
const SNAPSHOTS_PER_READ = 10;

/**
 * Endpoint 12: the access paths to each resource, over the newest snapshots of every account of
 * the partner customer together, so that chains cross its accounts. The account of the path
 * must have been analysed at least once.
 */
export async function resourceAccessPaths(
  ctx: ServiceContext,
  paths: AccessPaths,
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
  const snapshots = (await latestSnapshotIdsOfCustomer(ctx.db, customer.customerId)).filter(
    (s) => !AzureSubscriptionId.safeParse(s.accountId).success,
  );
  if (!snapshots.some((s) => s.accountId === input.accountId))
    throw new AppError(
      "CONFLICT",
      `Account ${input.accountId} has not been analysed yet: trigger an analysis (POST /partner/${input.partnerId}/customer/${input.partnerCustomerId}/account/${input.accountId}/analysis) and ask again once it has succeeded`,
    );
  const executionIds = snapshots.map((s) => s.executionId).sort();
  const key = [customer.customerId, ...executionIds].join("|");
  // The graph is built and the paths enumerated where the graph lives (a worker thread): the
  // snapshots are read only when it holds no graph of these snapshots.
  return paths.answer(key, input.request, async () => {
    const data: Buffer[] = [];
    // A few at a time: the driver decodes each answer on this thread, between other requests.
    for (let i = 0; i < executionIds.length; i += SNAPSHOTS_PER_READ) {
      const part = executionIds.slice(i, i + SNAPSHOTS_PER_READ);
      const read = await snapshotDataOf(ctx.db, part);
      for (const executionId of part) {
        const bytes = read.get(executionId);
        if (!bytes)
          throw new AppError(
            "UNAVAILABLE",
            "A newer analysis replaced a snapshot while the request read them: ask again",
            { details: { retryAfterSeconds: 1 } },
          );
        data.push(bytes);
      }
    }
    return data;
  });
}
