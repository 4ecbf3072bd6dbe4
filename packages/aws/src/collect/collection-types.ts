import type { AwsPartition, CollectionMetadata } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";
import type { AwsCredentials } from "../aws-credentials.ts";
import type { AwsClientOptions } from "../client-options.ts";

// The metadata's types live in `@sightline/domain`, which the reports share; kept importable
// from here.
export type {
  BucketMetadata,
  CollectionMetadata,
  KeyMetadata,
  RoleLastUsed,
} from "@sightline/domain";

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

export interface CollectedAccount {
  /** The engine's input: `createAccountModel(snapshot)`. Plain JSON, ready to store. */
  readonly snapshot: AccountSnapshot;
  readonly metadata: CollectionMetadata;
  readonly warnings: readonly CollectionWarning[];
}
