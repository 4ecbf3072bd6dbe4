import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { AppError, type AwsPartition } from "@sightline/domain";
import { parseArn } from "@sightline/engine/arn";
import { describeFailure } from "../aws-call-error.ts";
import type { AwsCredentials, TemporaryCredentials } from "../aws-credentials.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import { type AwsClientOptions, sdkClientConfig } from "../client-options.ts";
import { PARTITION_HOME_REGIONS } from "../partitions.ts";

export interface AssumeAuditorRoleInput {
  readonly roleArn: string;
  readonly externalId: string;
  readonly partition: AwsPartition;
  /** Shown in the monitored account's CloudTrail; the execution ID is a good one. */
  readonly sessionName: string;
  /** Sightline's own credentials. Default: the SDK's standard credential chain. */
  readonly sourceCredentials?: AwsCredentials;
  /** Default 3600 (the maximum a role allows by default). */
  readonly durationSeconds?: number;
  /** STS region. Default: the partition's home region. */
  readonly region?: string;
  readonly clientOptions?: AwsClientOptions;
}

export interface AssumedRoleCredentials extends TemporaryCredentials {
  /** `arn:<partition>:sts::<account>:assumed-role/<role>/<session>` */
  readonly assumedRoleArn: string;
}

/** The `config` auditor method: STS AssumeRole on the customer's role with its external ID. */
export async function assumeAuditorRole(
  input: AssumeAuditorRoleInput,
): Promise<AssumedRoleCredentials> {
  if (parseArn(input.roleArn)?.partition !== input.partition) {
    throw new AppError(
      "CREDENTIAL_INVALID",
      `The auditor role ${input.roleArn} is not in partition ${input.partition}: configure a role of that partition`,
    );
  }
  const region = input.region ?? PARTITION_HOME_REGIONS[input.partition];
  const client = new STSClient(
    sdkClientConfig("sts", region, input.sourceCredentials, input.clientOptions),
  );
  try {
    const answer = await client.send(
      new AssumeRoleCommand({
        RoleArn: input.roleArn,
        ExternalId: input.externalId,
        RoleSessionName: toSessionName(input.sessionName),
        DurationSeconds: input.durationSeconds ?? 3600,
      }),
    );
    const issued = answer.Credentials;
    const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = issued ?? {};
    if (!AccessKeyId || !SecretAccessKey || !SessionToken || !Expiration) {
      throw new AppError("CLOUD_UNAVAILABLE", "STS AssumeRole answered without credentials");
    }
    return {
      accessKeyId: AccessKeyId,
      secretAccessKey: SecretAccessKey,
      sessionToken: SessionToken,
      expiration: Expiration,
      assumedRoleArn: answer.AssumedRoleUser?.Arn ?? input.roleArn,
    };
  } catch (error) {
    throw assumeRoleError(error, input.roleArn);
  } finally {
    client.destroy();
  }
}

/** Role session names allow 2–64 characters of `[\w+=,.@-]`. */
function toSessionName(name: string): string {
  const cleaned = name.replace(/[^\w+=,.@-]/g, "-").slice(0, 64);
  return cleaned.length >= 2 ? cleaned : `sightline-${cleaned}`;
}

function assumeRoleError(error: unknown, roleArn: string): AppError {
  if (error instanceof AppError) return error;
  const failure = classifyAwsError(error);
  const said = describeFailure(failure);
  const options = { cause: error };
  switch (failure.kind) {
    case "denied":
      return new AppError(
        "ASSUME_ROLE_DENIED",
        `AssumeRole was denied: check that the trust policy of ${roleArn} trusts Sightline's principal and that its sts:ExternalId condition matches the configured external ID (${said})`,
        options,
      );
    case "not-found":
      return new AppError(
        "ASSUME_ROLE_DENIED",
        `The role ${roleArn} was not found (${said})`,
        options,
      );
    case "expired":
      return new AppError(
        "CREDENTIAL_EXPIRED",
        `Sightline's own AWS credentials have expired, so it cannot assume ${roleArn} (${said})`,
        { ...options, retryable: true },
      );
    case "invalid-credentials":
      return new AppError(
        "CREDENTIAL_INVALID",
        `STS rejected Sightline's own AWS credentials, so it cannot assume ${roleArn} (${said})`,
        options,
      );
    case "throttled":
      return new AppError("THROTTLED", `STS kept throttling AssumeRole on ${roleArn}`, options);
    case "unavailable":
      return new AppError("CLOUD_UNAVAILABLE", `STS did not answer AssumeRole (${said})`, options);
    default:
      return failure.code === "RegionDisabledException"
        ? new AppError(
            "ASSUME_ROLE_DENIED",
            `STS is not activated in the region called for ${roleArn}: activate it in the account or configure another STS region (${said})`,
            options,
          )
        : new AppError("ASSUME_ROLE_DENIED", `AssumeRole on ${roleArn} failed (${said})`, options);
  }
}
