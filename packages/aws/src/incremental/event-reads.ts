import type {
  AccessKeyUse,
  AwsEventTarget,
  AwsPartition,
  BucketMetadata,
  KeyMetadata,
} from "@sightline/domain";
import type { AccountSnapshot, OrganizationInput } from "@sightline/engine";
import type { AwsCredentials } from "../aws-credentials.ts";
import type { AwsClientOptions } from "../client-options.ts";
import type { CollectionWarning } from "../collect/collection-types.ts";

/** A GAAD entry (`UserDetailList`, `RoleDetailList`, `GroupDetailList`, `Policies`) as plain JSON. */
export type GaadEntry = Record<string, unknown>;

export interface ReadEventTargetsInput {
  readonly credentials: AwsCredentials;
  readonly accountId: string;
  readonly partition: AwsPartition;
  readonly clientOptions?: AwsClientOptions;
  readonly targets: readonly AwsEventTarget[];
  /** Per-resource calls in flight at once. Default 8. */
  readonly concurrency?: number;
  /**
   * The snapshot the reads will patch: a managed policy that a read principal uses and that it
   * lacks is read too. Without it, every managed policy the read principals use is read.
   */
  readonly previous?: AccountSnapshot;
}

/** A user's password and access keys, as the credential report would list them now. */
export interface UserCredentialsRead {
  readonly passwordEnabled: boolean;
  /** `GetLoginProfile`'s `CreateDate` (ISO). */
  readonly passwordLastChanged?: string;
  /** `GetUser`'s `PasswordLastUsed` (ISO). */
  readonly passwordLastUsed?: string;
  /** Oldest first, two slots as in the report. */
  readonly accessKeys: readonly [AccessKeyUse, AccessKeyUse];
}

export interface UserRead {
  /** The user's `UserDetailList` entry, in GAAD's shape. */
  readonly entry: GaadEntry;
  /** Read when the target asked for `credentials`. */
  readonly credentials?: UserCredentialsRead;
}

export interface BucketRead {
  readonly metadata: BucketMetadata;
  /** Absent: the bucket has no policy, or it could not be read (then a warning says so). */
  readonly policy?: unknown;
}

export type KeyRead =
  | { readonly awsManaged: true }
  | {
      readonly awsManaged: false;
      readonly metadata: KeyMetadata;
      readonly policy?: unknown;
      /** Its key policy was refused: the engine answers its KMS access as conditional. */
      readonly policyUnread: boolean;
    };

/**
 * What the events' targets read back. Each record holds what was read, keyed by name (IAM
 * principals) or ARN; `null` means it no longer exists (a deletion, not an error).
 */
export interface EventReads {
  readonly accountId: string;
  readonly partition: AwsPartition;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly users: Readonly<Record<string, UserRead | null>>;
  readonly roles: Readonly<Record<string, GaadEntry | null>>;
  readonly groups: Readonly<Record<string, GaadEntry | null>>;
  /** Managed policies by ARN: the `Policies` entry with every version, as GAAD gives it. */
  readonly policies: Readonly<Record<string, GaadEntry | null>>;
  /** By bucket ARN. */
  readonly buckets: Readonly<Record<string, BucketRead | null>>;
  /** By key ARN; `null` also for a key pending deletion (the full collection leaves it out). */
  readonly keys: Readonly<Record<string, KeyRead | null>>;
  /** Present when the organisation was read: its value as the full collection reads it. */
  readonly organization?: { readonly value: OrganizationInput | undefined };
  /** What was refused, as the full collection words it (a bucket's policy, an SCP listing). */
  readonly warnings: readonly CollectionWarning[];
}
