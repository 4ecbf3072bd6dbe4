/** The credential type the collector takes, so that callers need not import `@azure/*`. */
export type { TokenCredential as AzureTokenCredential } from "@azure/core-auth";
export {
  AZURE_CLOUD_ENDPOINTS,
  type AzureCloudName,
  type AzureEndpoints,
  endpointsOf,
  isKnownAuthorityHost,
} from "./azure-clouds.ts";
export type { ReadPurpose } from "./azure-error.ts";
export {
  type CollectSubscriptionInput,
  collectSubscription,
} from "./collect/collect-subscription.ts";
export type {
  AzureCollectionMetadata,
  AzureCollectionWarning,
  AzureCollectionWarningKind,
  CollectedSubscription,
} from "./collect/collection-types.ts";
export { ARM_API_VERSIONS } from "./collect/read-arm.ts";
export { GRAPH_APPLICATION_PERMISSIONS, GRAPH_ID_FILTER_SIZE } from "./collect/read-graph.ts";
export {
  type AppCredentialInput,
  type AppSecret,
  createAppCredential,
} from "./credentials/app-credential.ts";
export {
  type AzureVendingRequest,
  createVendedTokenCredential,
  VendedAzureToken,
  type VendedTokenCredentialInput,
} from "./credentials/vended-token-credential.ts";
export {
  type AzureHttpOptions,
  type AzureRestClient,
  createAzureRestClient,
} from "./rest/azure-rest-client.ts";
