import type { Capability } from "@sightline/capabilities";
import type { Issue } from "../issues.ts";
import type { AccessLevel } from "./decision-at.ts";

/** AWS principals; Azure principals (the Azure analysis) carry the `Azure…` types. */
export type PrincipalType =
  | "IAMUser"
  | "IAMRole"
  | "AzureUser"
  | "AzureGroup"
  | "AzureServicePrincipal"
  | "AzureManagedIdentity";

/**
 * A policy (or, for Azure, a role assignment) whose statements give a row's capability: what a
 * reviewer must change to take the access away.
 */
export interface GrantSource {
  /**
   * AWS: `managed` (customer or AWS managed policy: `policyArn`), `inline` (the principal's own:
   * `policyName`), `group-managed` / `group-inline` (received through `group`), `resource`
   * (the resource's policy: `policyArn` is the resource ARN). Azure: `role-assignment`
   * (`policyArn` is the assignment ID, `policyName` the role's name).
   */
  policyType:
    | "managed"
    | "inline"
    | "group-managed"
    | "group-inline"
    | "resource"
    | "role-assignment";
  policyArn?: string;
  policyName?: string;
  /** The group the policy is received through (AWS) or the assignee group (Azure). */
  group?: string;
  /** The granting statements' Sids (or `#<index>` when a statement has none). */
  sids?: readonly string[];
}

/** One row of the principals report. */
export interface PrincipalRow {
  principalArn: string;
  principalName: string;
  principalType: PrincipalType;
  accountId: string;
  /** administer-resource on IAM service-wide: `yes`, only under conditions, or `no`. */
  iamAdmin: "yes" | "conditional" | "no";
  groupArns: readonly string[];
  permissionsBoundaryArn?: string;
  tags: Readonly<Record<string, string>>;
  /** IAM admins: the policies that make the principal one. */
  iamAdminGrantedBy?: readonly GrantSource[];
  /** IAM admins: the actions (administer-resource on IAM) those policies grant. */
  iamAdminActions?: readonly string[];
}

export type ResourceType =
  | "S3Bucket"
  | "KMSKey"
  | "IAMRole"
  | "Other"
  /** Azure scopes that hold role assignments of their own. */
  | "AzureSubscription"
  | "AzureResourceGroup"
  | "AzureResource";

/** One row of the resources report: a resource with a resource-based policy, or an owned bucket without one. */
export interface ResourceRow {
  resourceArn: string;
  resourceType: ResourceType;
  service: string;
  accountId: string | undefined;
  /** A statement allows `*` (possibly under conditions). */
  allowsAnyPrincipal: boolean;
}

/** A capability a principal holds in one service, service-wide (`resourceArn` "") or on a resource pattern. */
export interface PrincipalAccessSummary {
  principalArn: string;
  principalName: string;
  principalType: PrincipalType;
  service: string;
  capability: Capability;
  /** "" for service-wide (granted on `*`), else the resource ARN pattern of the grant. */
  resourceArn: string;
  conditional: boolean;
  /**
   * AWS service-wide rows: resource patterns where a Deny carves this capability out (maybe under
   * conditions). Azure: scopes at or below the row's where a deny assignment cuts the capability,
   * each with everything below it.
   */
  exceptResources: readonly string[];
  /**
   * Azure: scopes where a deny assignment with `doNotApplyToChildScopes` cuts the capability at
   * that scope only, the scopes below it keeping the row's access. Absent when none (always for
   * AWS).
   */
  exceptResourcesThisScopeOnly?: readonly string[];
  /** The policies whose statements give this capability. */
  grantedBy?: readonly GrantSource[];
}

export type ResourcePrincipalType =
  | "IAMUser"
  | "IAMRole"
  | "Account"
  | "Anonymous"
  | "Service"
  | "Federated"
  | "CanonicalUser"
  | "ExternalPrincipal"
  | "AzureUser"
  | "AzureGroup"
  | "AzureServicePrincipal"
  | "AzureManagedIdentity";

/** Who holds a capability on a resource of `AccountAnalysis.resources`. */
export interface ResourceAccessSummary {
  resourceArn: string;
  resourceType: ResourceType;
  service: string;
  capability: Capability;
  /** ARN, account ID, `*`, service or federated provider name. */
  principal: string;
  principalType: ResourcePrincipalType;
  /** The principal belongs to the resource's account. */
  inAccount: boolean;
  conditional: boolean;
  /** The policies whose statements give this capability. */
  grantedBy?: readonly GrantSource[];
}

export interface AnalysisStats {
  principals: number;
  /** Distinct effective policy sets: principals sharing one are evaluated once. */
  policySets: number;
  resources: number;
  actionPatternsExpanded: number;
  policyLayersComputed: number;
}

export interface AccountAnalysis {
  principals: readonly PrincipalRow[];
  resources: readonly ResourceRow[];
  /** Rows are produced as you iterate, from per-policy-set results; memory stays bounded. */
  principalAccessSummaries(): Generator<PrincipalAccessSummary>;
  /** Rows are computed as you iterate, resource by resource. */
  resourceAccessSummaries(): Generator<ResourceAccessSummary>;
  /**
   * The access the summaries are built from, for one catalogue action: on `*` (service-wide)
   * or on a resource ARN or pattern. Undefined for an unknown principal or action.
   */
  accessOf(principalArn: string, action: string, resource: string): AccessLevel | undefined;
  issues: readonly Issue[];
  stats: AnalysisStats;
}
