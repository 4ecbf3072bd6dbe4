import {
  type AwsSecurityFinding,
  BatchImportFindingsCommand,
  SecurityHubClient,
} from "@aws-sdk/client-securityhub";
import { AppError, type AwsPartition, isAppError } from "@sightline/domain";
import { parseArn } from "@sightline/engine/arn";
import { describeFailure } from "../aws-call-error.ts";
import type { AwsCredentials } from "../aws-credentials.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import { type AwsClientOptions, sdkClientConfig } from "../client-options.ts";
import { assumeAuditorRole } from "../credentials/assume-auditor-role.ts";

/** BatchImportFindings takes at most 100 findings a call. */
export const SECURITY_HUB_BATCH = 100;

export interface ImportSecurityHubFindingsInput {
  /** A role in the receiving account that allows `securityhub:BatchImportFindings`. */
  readonly roleArn: string;
  readonly externalId: string;
  readonly region: string;
  /** Shown in the receiving account's CloudTrail: the alert ID is a good one. */
  readonly sessionName: string;
  readonly findings: readonly AwsSecurityFinding[];
  /** Sightline's own credentials. Default: the SDK's standard credential chain. */
  readonly sourceCredentials?: AwsCredentials;
  readonly clientOptions?: AwsClientOptions;
}

export interface FailedFinding {
  readonly id: string;
  readonly code: string;
  readonly message: string;
}

export interface ImportSecurityHubFindingsResult {
  readonly imported: number;
  /** The findings Security Hub refused (`FailedFindings`), batch by batch. */
  readonly failed: readonly FailedFinding[];
}

/**
 * Imports findings into the Security Hub of the role's account: Sightline's own credentials
 * assume the role with its external ID, then send the findings 100 at a time. A refused call
 * throws an `AppError` (retryable when it may pass: throttling, an outage); findings Security Hub
 * refused one by one are returned in `failed`.
 */
export async function importSecurityHubFindings(
  input: ImportSecurityHubFindingsInput,
): Promise<ImportSecurityHubFindingsResult> {
  const partition = parseArn(input.roleArn)?.partition as AwsPartition | undefined;
  if (!partition)
    throw new AppError("CREDENTIAL_INVALID", `${input.roleArn} is not a role ARN of a partition`);
  const credentials = await assumeAuditorRole({
    roleArn: input.roleArn,
    externalId: input.externalId,
    partition,
    sessionName: input.sessionName,
    durationSeconds: 900,
    ...(input.sourceCredentials ? { sourceCredentials: input.sourceCredentials } : {}),
    ...(input.clientOptions ? { clientOptions: input.clientOptions } : {}),
  });
  const client = new SecurityHubClient(
    sdkClientConfig("securityhub", input.region, credentials, input.clientOptions),
  );
  let imported = 0;
  const failed: FailedFinding[] = [];
  try {
    for (let start = 0; start < input.findings.length; start += SECURITY_HUB_BATCH) {
      const batch = input.findings.slice(start, start + SECURITY_HUB_BATCH);
      const answer = await client.send(new BatchImportFindingsCommand({ Findings: batch }));
      imported += answer.SuccessCount ?? 0;
      for (const finding of answer.FailedFindings ?? [])
        failed.push({
          id: finding.Id ?? "",
          code: finding.ErrorCode ?? "Unknown",
          message: (finding.ErrorMessage ?? "").slice(0, 300),
        });
    }
    return { imported, failed };
  } catch (error) {
    throw importError(error, input);
  } finally {
    client.destroy();
  }
}

function importError(error: unknown, input: ImportSecurityHubFindingsInput): AppError {
  if (isAppError(error)) return error;
  const failure = classifyAwsError(error);
  const said = describeFailure(failure);
  const options = { cause: error };
  const where = `the Security Hub of ${input.roleArn} in ${input.region}`;
  if (failure.code === "InvalidAccessException")
    return new AppError(
      "ACCESS_DENIED",
      `Security Hub is not enabled in ${input.region} of the role's account: enable it there, or name another region (${said})`,
      options,
    );
  switch (failure.kind) {
    case "denied":
      return new AppError(
        "ACCESS_DENIED",
        `securityhub:BatchImportFindings was denied on ${where}: allow it in the role's policy (${said})`,
        options,
      );
    case "throttled":
      return new AppError(
        "THROTTLED",
        `Security Hub kept throttling the import (${said})`,
        options,
      );
    case "unavailable":
      return new AppError("CLOUD_UNAVAILABLE", `Security Hub did not answer (${said})`, options);
    case "expired":
    case "invalid-credentials":
      return new AppError(
        "CREDENTIAL_INVALID",
        `Security Hub refused the role's session (${said})`,
        { ...options, retryable: true },
      );
    default:
      return new AppError(
        "CLOUD_UNAVAILABLE",
        `Security Hub refused the import into ${where} (${said})`,
        { ...options, retryable: (failure.status ?? 500) >= 500 },
      );
  }
}
