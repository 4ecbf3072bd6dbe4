import type {
  AzureDenyAssignmentInput,
  AzureResourceInput,
  AzureRoleAssignmentInput,
  AzureRoleDefinitionInput,
} from "@sightline/engine";

/** An application registration consented in the fake tenant: how it signs in, what it may read. */
export interface FakeApp {
  clientId: string;
  /** Client secret accepted by the token endpoint. */
  secret?: string;
  /** PEM certificate whose key signs client assertions (ClientCertificateCredential). */
  certificatePem?: string;
  /** Reader on the subscription (ARM reads of the subscription and below). Default true. */
  reader?: boolean;
  /** The management groups above the subscription are readable. Default true. */
  managementGroupsReadable?: boolean;
  /** Granted Graph application permissions, e.g. `GroupMember.Read.All`. */
  graphPermissions: string[];
}

export interface FakeUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
}

export interface FakeServicePrincipal {
  id: string;
  displayName: string;
  appId: string;
  /** `Application` or `ManagedIdentity`. */
  servicePrincipalType: string;
}

export interface FakeGroup {
  id: string;
  displayName: string;
  /** Direct members: users, service principals, groups (nested). */
  memberIds: string[];
}

/**
 * One tenant with one subscription, in `az`'s shapes; the fake serves them in ARM's REST
 * shapes (`properties` nested) and Graph's.
 */
export interface FakeAzureModel {
  tenantId: string;
  apps: FakeApp[];
  subscriptionId: string;
  subscriptionName: string;
  /** Management groups above the subscription, root first. */
  managementGroupChain: string[];
  /**
   * Listed at the subscription when assignable at `/`, at the subscription or below; others
   * (custom roles of a management group) only by ID, as ARM does.
   */
  roleDefinitions: AzureRoleDefinitionInput[];
  /** At any scope; listed when at the root, a management group of the chain, or the subscription and below. */
  roleAssignments: AzureRoleAssignmentInput[];
  /** ARM's REST shape (`properties`). */
  denyAssignments: AzureDenyAssignmentInput[];
  resourceGroups: AzureResourceInput[];
  resources: AzureResourceInput[];
  users: FakeUser[];
  servicePrincipals: FakeServicePrincipal[];
  groups: FakeGroup[];
}
