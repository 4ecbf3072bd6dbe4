import type { AwsPartition } from "@sightline/domain";

/** A GAAD entry as the AWS CLI prints it; the fake URL-encodes its documents when serving. */
export type GaadEntry = Record<string, unknown>;

export interface FakeBucket {
  readonly name: string;
  /** Default us-east-1. */
  readonly region?: string;
  readonly policy?: unknown;
  readonly tags?: Readonly<Record<string, string>>;
  /** The account that owns it (`x-amz-expected-bucket-owner` is checked against it). Default: the model's. */
  readonly ownerAccountId?: string;
}

export interface FakeKey {
  readonly keyId: string;
  /** Default us-east-1. */
  readonly region?: string;
  readonly policy?: unknown;
  readonly aliases?: readonly string[];
  readonly tags?: Readonly<Record<string, string>>;
  /** Default CUSTOMER. */
  readonly manager?: "AWS" | "CUSTOMER";
  /** Default Enabled. */
  readonly state?: string;
}

export interface FakeOrganizationPolicy {
  readonly id: string;
  readonly name: string;
  readonly type: "SERVICE_CONTROL_POLICY" | "RESOURCE_CONTROL_POLICY";
  readonly document: unknown;
  /** Root, OU or account IDs it is attached to. */
  readonly targets: readonly string[];
}

export interface FakeOrganization {
  readonly id: string;
  readonly managementAccountId: string;
  readonly rootId: string;
  /** Default both SCPs and RCPs. */
  readonly enabledPolicyTypes?: readonly FakeOrganizationPolicy["type"][];
  /** Child (account or OU) → parent (OU or root). */
  readonly parents: Readonly<Record<string, string>>;
  readonly policies: readonly FakeOrganizationPolicy[];
  /** Whether the account may read policies although it is not the management account. */
  readonly delegatedAdministrator?: boolean;
}

/** A role Sightline may assume, and the external ID its trust policy requires. */
export interface FakeAssumableRole {
  readonly roleArn: string;
  readonly externalId: string;
}

/** The account the fake serves. Every list is optional. */
export interface FakeAccountModel {
  readonly accountId: string;
  /** Default aws. */
  readonly partition?: AwsPartition;
  /** A role trusting several external IDs (one per tenant) appears once per ID. */
  readonly assumableRoles?: readonly FakeAssumableRole[];
  readonly authorizationDetails?: {
    readonly UserDetailList?: readonly GaadEntry[];
    readonly GroupDetailList?: readonly GaadEntry[];
    readonly RoleDetailList?: readonly GaadEntry[];
    readonly Policies?: readonly GaadEntry[];
  };
  /** Entries per GAAD page at most, whatever MaxItems asks. Default 1000. */
  readonly gaadPageSize?: number;
  /** Managed policies that GetPolicy serves but GAAD leaves out (GAAD `Policies` shape). */
  readonly policiesOutsideGaad?: readonly GaadEntry[];
  /** The credential report CSV. Default: derived from the users, with nothing used. */
  readonly credentialReportCsv?: string;
  /** GenerateCredentialReport calls answering STARTED/INPROGRESS before COMPLETE. Default 1. */
  readonly credentialReportPolls?: number;
  /** Enabled regions. Default us-east-1 alone. */
  readonly regions?: readonly string[];
  readonly buckets?: readonly FakeBucket[];
  readonly keys?: readonly FakeKey[];
  readonly organization?: FakeOrganization;
}
