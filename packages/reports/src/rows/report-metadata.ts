import type { PrincipalRow } from "@sightline/engine";

/**
 * A console password, as the IAM credential report describes it. Present means the user has or
 * had one: a removed password keeps its `password_last_used` in the report.
 */
export interface PasswordCredential {
  /** `password_enabled` in the credential report: `true` (the default) → `Active`, `false` → `Inactive`. */
  active?: boolean;
  lastUsed?: Date;
  /** `password_last_changed` in the credential report. */
  lastRotated?: Date;
}

/** An access key, as the IAM credential report describes it. Present means the key exists. */
export interface AccessKeyCredential {
  /** `access_key_N_active` in the credential report: `true` → `Active`, `false` → `Inactive`. */
  active: boolean;
  lastUsed?: Date;
  /** `access_key_N_last_rotated` in the credential report. */
  lastRotated?: Date;
}

/** An IAM user's credentials from the credential report; absent members do not exist. */
export interface UserCredentials {
  password?: PasswordCredential;
  accessKey1?: AccessKeyCredential;
  accessKey2?: AccessKeyCredential;
}

/** What collection knows about a principal beyond its IAM configuration. */
export interface PrincipalMetadata {
  /** A principal that is not an IAM admin but can become one: its shortest chain to one. */
  iamAdminPath?: readonly string[];
  /** A role's `RoleLastUsed.LastUsedDate`; for a user, taken from its credentials when omitted. */
  lastUsed?: Date;
  credentials?: UserCredentials;
}

/** What collection knows about a resource beyond its policy. */
export interface ResourceMetadata {
  /** A display name, e.g. a KMS key's alias; derived from the ARN when omitted. */
  name?: string;
  tags?: Readonly<Record<string, string>>;
}

/** Everything the row builders combine with the engine's rows. */
export interface ReportInput {
  /** The run's analysis time, passed in: builders never read the clock. */
  analysisTime: Date;
  /** The analysis's principals: their names and tags fill the access summaries. */
  principals: readonly PrincipalRow[];
  /** By principal ARN. */
  principalMetadata?: ReadonlyMap<string, PrincipalMetadata>;
  /** By resource ARN. */
  resourceMetadata?: ReadonlyMap<string, ResourceMetadata>;
}
