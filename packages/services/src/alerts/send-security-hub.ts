import { importSecurityHubFindings, securityHubFinding } from "@sightline/aws";
import { type AccessChange, isAppError } from "@sightline/domain";
import type { AlertSettings } from "./alert-settings.ts";
import type { DigestContext } from "./email-digest.ts";
import type { SendResult } from "./send-webhook.ts";

export interface SecurityHubConfig {
  roleArn: string;
  externalId: string;
  region: string;
}

/**
 * Imports one ASFF finding per change into the destination's Security Hub. Findings Security
 * Hub refuses make the attempt one to retry (a re-import updates the findings already taken).
 */
export async function sendToSecurityHub(input: {
  settings: AlertSettings;
  config: SecurityHubConfig;
  context: DigestContext;
  changes: readonly AccessChange[];
}): Promise<SendResult> {
  const { config, context } = input;
  const [, partition = "aws", , , hubAccountId = ""] = config.roleArn.split(":");
  const findings = input.changes.map((change) =>
    securityHubFinding(change, {
      hubAccountId,
      region: config.region,
      partition,
      accountId: context.accountId,
      provider: context.provider,
      executionId: context.executionId,
      analysisTime: context.analysisTime,
    }),
  );
  const aws = input.settings.aws ?? {};
  try {
    const result = await importSecurityHubFindings({
      roleArn: config.roleArn,
      externalId: config.externalId,
      region: config.region,
      sessionName: `sightline-alert-${context.alertId.slice(0, 32)}`,
      findings,
      ...(aws.serviceCredentials ? { sourceCredentials: aws.serviceCredentials } : {}),
      ...(aws.clientOptions ? { clientOptions: aws.clientOptions } : {}),
    });
    const [first] = result.failed;
    if (!first) return { outcome: "delivered" };
    return {
      outcome: "retry",
      error: `Security Hub refused ${result.failed.length} of ${findings.length} findings (${first.code}: ${first.message})`,
    };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { outcome: error.retryable ? "retry" : "failed", error: error.message };
  }
}
