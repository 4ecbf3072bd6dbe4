import { randomBytes } from "node:crypto";
import type { CollectedAccount } from "@sightline/aws";
import { finishExecution, insertExecution, loadPartnerAccountContext } from "@sightline/db";
import { AppError, type AwsPartition, formatExecutionId } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";
import type { ServiceContext } from "../context.ts";
import { storeCollection } from "./stored-collection.ts";

/**
 * Stores an account's IAM configuration exported by hand (`aws iam
 * get-account-authorization-details`) as the newest snapshot of a partner customer's account,
 * as if a worker had collected it: endpoint 12 answers from it. The execution that holds it is
 * recorded `succeeded` with the auth method `import` and no reports.
 */
export async function importSnapshot(
  ctx: Pick<ServiceContext, "db" | "now">,
  input: {
    partnerId: string;
    partnerCustomerId: string;
    accountId: string;
    partition: AwsPartition;
    snapshot: AccountSnapshot;
  },
): Promise<{ executionId: string; customerId: string }> {
  const account = await loadPartnerAccountContext(ctx.db, input);
  if (!account)
    throw new AppError(
      "NOT_FOUND",
      `Customer ${input.partnerCustomerId} of partner ${input.partnerId} is not configured: PUT /partner/${input.partnerId}/customer/${input.partnerCustomerId} first`,
    );
  const now = ctx.now();
  const executionId = formatExecutionId({
    kind: "ondemand",
    customerId: account.customerId,
    accountId: input.accountId,
    startedAt: now,
    random: randomBytes(4),
  });
  const execution = {
    executionId,
    kind: "ondemand" as const,
    customerId: account.customerId,
    accountId: input.accountId,
    partnerId: input.partnerId,
    partnerCustomerId: input.partnerCustomerId,
    provider: input.partition,
    authMethod: "import" as const,
  };
  const inserted = await insertExecution(ctx.db, { execution }, async () => {});
  if (inserted.kind === "active")
    throw new AppError(
      "CONFLICT",
      `Account ${input.accountId} is being analysed by execution ${inserted.executionId}; import when it has finished`,
    );
  if (inserted.kind === "duplicate-id") throw new Error("execution ID taken; import again");
  const time = now.toISOString();
  const collected: CollectedAccount = {
    snapshot: { ...input.snapshot, accountId: input.accountId, partition: input.partition },
    metadata: {
      accountId: input.accountId,
      partition: input.partition,
      callerArn: "import",
      regions: [],
      startedAt: time,
      finishedAt: time,
      roleLastUsed: {},
      buckets: {},
      keys: {},
    },
    warnings: [],
  };
  await storeCollection(ctx.db, execution, collected);
  await finishExecution(ctx.db, executionId, { status: "succeeded", reportKeys: [], warnings: [] });
  return { executionId, customerId: account.customerId };
}
