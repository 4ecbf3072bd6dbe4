import type { AzureSnapshot } from "@sightline/engine";
import type { AzureCloudName } from "../azure-clouds.ts";

export type AzureCollectionWarningKind =
  /** A read Reader or a Graph permission should allow was refused; the part is missing. */
  | "access-denied"
  /** A principal of a role assignment is not in the directory (deleted, or another tenant's). */
  | "principal-not-found"
  /** A role assignment names a role definition that could not be read. */
  | "role-definition-not-found"
  /** The subscription's management groups could not be read: every inherited assignment applies. */
  | "management-groups-unreadable";

/** Something collection could not read; the analysis runs without it. */
export interface AzureCollectionWarning {
  readonly kind: AzureCollectionWarningKind;
  readonly message: string;
  /** The ARM ID or directory object ID concerned. */
  readonly resourceId?: string;
}

export interface AzureCollectionMetadata {
  readonly provider: "azure";
  readonly cloud: AzureCloudName;
  readonly subscriptionId: string;
  readonly subscriptionName?: string;
  readonly tenantId?: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly counts: {
    readonly roleDefinitions: number;
    readonly roleAssignments: number;
    readonly denyAssignments: number;
    readonly principals: number;
    readonly groups: number;
    readonly resourceGroups: number;
    readonly resources: number;
  };
}

/** What collection found: the engine's input, and what the reports and the execution add. */
export interface CollectedSubscription {
  readonly snapshot: AzureSnapshot;
  readonly metadata: AzureCollectionMetadata;
  readonly warnings: AzureCollectionWarning[];
}
