import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { AppError } from "@sightline/domain";
import { awsCallError } from "../aws-call-error.ts";
import type { CollectContext } from "./collect-context.ts";

/**
 * Checks that the credentials belong to the monitored account before reading anything, so that
 * a vending service or a caller handing out another account's credentials cannot make Sightline
 * report that account under this one. Returns the caller's ARN.
 */
export async function verifyCaller(ctx: CollectContext): Promise<string> {
  let identity: { Account?: string; Arn?: string };
  try {
    identity = await ctx.clients.sts.send(new GetCallerIdentityCommand({}));
  } catch (error) {
    throw awsCallError(error, "sts:GetCallerIdentity", `account ${ctx.accountId}`);
  }
  if (identity.Account !== ctx.accountId) {
    throw new AppError(
      "CREDENTIAL_INVALID",
      `The auditor credentials belong to account ${identity.Account ?? "unknown"}, not to the monitored account ${ctx.accountId}`,
    );
  }
  return identity.Arn ?? "";
}
