import {
  type AzureCloudName,
  type AzureEndpoints,
  type AzureTokenCredential,
  createAppCredential,
  createVendedTokenCredential,
  endpointsOf,
} from "@sightline/azure";
import type { AccountContext, ExecutionRow } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { AnalysisSettings } from "./analysis-settings.ts";
import { vendingCallOf } from "./vending-call.ts";

export function azureEndpointsFor(
  settings: AnalysisSettings,
  cloud: AzureCloudName,
): AzureEndpoints {
  return endpointsOf(cloud, settings.azure?.endpoints);
}

/**
 * The auditor of an Azure subscription: `config` signs in as Sightline's own application in the
 * customer's tenant (`auditorAuthConfig: { tenantId, clientId }`) with the operator's secret or
 * certificate; `cvs` takes tokens from the credential vending service. Own credentials are
 * AWS-only (contract section 2.5); the trigger refuses them for Azure.
 */
export function obtainAzureCredential(
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  endpoints: AzureEndpoints,
): { credential: AzureTokenCredential; tenantId?: string } {
  if (execution.authMethod === "cvs")
    return { credential: createVendedTokenCredential(vendingCallOf(settings, execution, account)) };
  if (execution.authMethod !== "config")
    throw new AppError(
      "CREDENTIAL_INVALID",
      "Own credentials (auditorAuthMethod 'credential') are for AWS accounts only: configure the Azure subscription's auditor (config or cvs)",
      { retryable: false },
    );
  const config = account.monitoring?.auditorAuthConfig as
    | { tenantId?: string; clientId?: string }
    | undefined;
  if (!config?.tenantId || !config.clientId)
    throw new AppError(
      "CREDENTIAL_INVALID",
      `Subscription ${execution.accountId} has no auditor application configured any more: configure it again`,
    );
  const azure = settings.azure;
  if (!azure?.appSecret)
    throw new AppError(
      "CREDENTIAL_INVALID",
      "Sightline's Azure application has no credential: the operator must set SIGHTLINE_AZURE_CLIENT_SECRET or SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH",
      { retryable: false },
    );
  if (azure.clientId && azure.clientId.toLowerCase() !== config.clientId.toLowerCase())
    throw new AppError(
      "CREDENTIAL_INVALID",
      `Subscription ${execution.accountId} names application ${config.clientId}, but Sightline's application is ${azure.clientId}: set auditorAuthConfig.clientId to Sightline's`,
      { retryable: false },
    );
  return {
    credential: createAppCredential({
      tenantId: config.tenantId,
      clientId: config.clientId,
      secret: azure.appSecret,
      endpoints,
      ...(azure.http ? { http: azure.http } : {}),
    }),
    tenantId: config.tenantId,
  };
}
