import {
  assumeAuditorRole,
  credentialsFromOwnCredential,
  fetchVendedCredentials,
  type TemporaryCredentials,
} from "@sightline/aws";
import { type AccountContext, type ExecutionRow, getExecutionCredential } from "@sightline/db";
import { AppError, type AwsPartition, type OwnCredential } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { openForExecution } from "../credentials/envelope.ts";
import type { AnalysisSettings } from "./analysis-settings.ts";
import { vendingCallOf } from "./vending-call.ts";

/** The auditor's credentials for one execution, by its auth method. */
export async function obtainCredentials(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
): Promise<TemporaryCredentials> {
  const partition = execution.provider as AwsPartition;
  if (execution.authMethod === "credential") {
    const sealed = await getExecutionCredential(ctx.db, execution.executionId);
    if (!sealed)
      throw new AppError(
        "CREDENTIAL_EXPIRED",
        "The credential given with this trigger is no longer stored (it expired, or an earlier attempt used it): trigger again with fresh credentials",
      );
    const plain = await openForExecution(ctx.masterKey, execution.executionId, sealed);
    return credentialsFromOwnCredential(JSON.parse(plain) as OwnCredential, {
      accountId: execution.accountId,
      now: ctx.now(),
    });
  }
  if (execution.authMethod === "cvs")
    return fetchVendedCredentials({
      ...vendingCallOf(settings, execution, account),
      now: ctx.now(),
    });
  const config = account.monitoring?.auditorAuthConfig as
    | { roleArn: string; externalId: string }
    | undefined;
  if (!config)
    throw new AppError(
      "CREDENTIAL_INVALID",
      `Account ${execution.accountId} has no auditor role configured any more: configure it again`,
    );
  return assumeAuditorRole({
    roleArn: config.roleArn,
    externalId: config.externalId,
    partition,
    sessionName: `sightline-${execution.executionId}`,
    ...(settings.serviceCredentials ? { sourceCredentials: settings.serviceCredentials } : {}),
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
  });
}
