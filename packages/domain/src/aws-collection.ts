import type { AwsPartition } from "./identifiers.ts";

// What collection reads of an AWS account beside its snapshot. Plain types here, so that the
// collector (`@sightline/aws`) that fills them and the reports that show them share one shape
// without the reports depending on the AWS SDK.

export interface AccessKeyUse {
  readonly active: boolean;
  /** ISO 8601 UTC; absent when AWS says N/A. */
  readonly lastRotated?: string;
  readonly lastUsedDate?: string;
  readonly lastUsedRegion?: string;
  readonly lastUsedService?: string;
}

/** One user of the IAM credential report (the root user is `<root_account>`). */
export interface CredentialReportRow {
  readonly user: string;
  readonly arn: string;
  readonly userCreationTime?: string;
  /** Absent for the root user, whose password AWS reports as `not_supported`. */
  readonly passwordEnabled?: boolean;
  readonly passwordLastUsed?: string;
  readonly passwordLastChanged?: string;
  readonly passwordNextRotation?: string;
  readonly mfaActive: boolean;
  readonly accessKeys: readonly [AccessKeyUse, AccessKeyUse];
}

export interface CredentialReport {
  /** When IAM generated it (ISO 8601 UTC). */
  readonly generatedAt?: string;
  readonly rows: readonly CredentialReportRow[];
}

export interface RoleLastUsed {
  /** ISO 8601 UTC. */
  readonly lastUsedDate?: string;
  readonly region?: string;
}

export interface BucketMetadata {
  readonly name: string;
  readonly region?: string;
  readonly tags: Readonly<Record<string, string>>;
}

export interface KeyMetadata {
  readonly keyId: string;
  readonly region: string;
  readonly aliases: readonly string[];
  readonly state?: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** What the reports need beyond the snapshot. Records are keyed by ARN. */
export interface CollectionMetadata {
  readonly accountId: string;
  readonly partition: AwsPartition;
  /** The identity collection ran as (`sts:GetCallerIdentity`). */
  readonly callerArn: string;
  /** The regions whose keys were read. */
  readonly regions: readonly string[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly roleLastUsed: Readonly<Record<string, RoleLastUsed>>;
  /** Absent when the report could not be read (see the warnings). */
  readonly credentialReport?: CredentialReport;
  readonly buckets: Readonly<Record<string, BucketMetadata>>;
  readonly keys: Readonly<Record<string, KeyMetadata>>;
}
