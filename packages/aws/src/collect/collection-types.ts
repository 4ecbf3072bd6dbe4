import type { AwsPartition } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";
import type { AwsCredentials } from "../aws-credentials.ts";
import type { AwsClientOptions } from "../client-options.ts";
import type { CredentialReport } from "./parse-credential-report.ts";

export interface CollectAccountInput {
  /** The auditor's credentials (assumed role, vended or the caller's own). */
  readonly credentials: AwsCredentials;
  readonly accountId: string;
  readonly partition: AwsPartition;
  /** Regions whose KMS keys are read. Default: the account's enabled regions. */
  readonly regions?: readonly string[];
  readonly clientOptions?: AwsClientOptions;
  /** Per-resource calls in flight at once. Default 8. */
  readonly concurrency?: number;
  /** How long IAM may take to generate the credential report. Default 120 s. */
  readonly credentialReportTimeoutMs?: number;
  /** The longest pause between two credential report polls (the first is 250 ms). Default 2 s. */
  readonly credentialReportPollMs?: number;
}

export type CollectionWarningKind =
  /** A bucket or key whose policy, tags or location could not be read. */
  | "resource-unreadable"
  /** A listing (buckets, keys of a region, aliases, regions) that could not be read. */
  | "listing-unreadable"
  | "credential-report-unavailable"
  /** An attached managed policy absent from GAAD that could not be read: it grants nothing. */
  | "managed-policy-unreadable"
  | "scps-not-applied";

/** Something collection could not read. The run goes on; the report says what is missing. */
export interface CollectionWarning {
  readonly kind: CollectionWarningKind;
  /** The IAM action that failed, e.g. `s3:GetBucketPolicy`. */
  readonly action: string;
  readonly resourceArn?: string;
  /** A sentence a person can act on. */
  readonly message: string;
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

export interface CollectedAccount {
  /** The engine's input: `createAccountModel(snapshot)`. Plain JSON, ready to store. */
  readonly snapshot: AccountSnapshot;
  readonly metadata: CollectionMetadata;
  readonly warnings: readonly CollectionWarning[];
}
