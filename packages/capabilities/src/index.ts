export type { AwsAccessLevel } from "./aws-access-level.ts";
export {
  AWS_DATA_SOURCE,
  type AwsActionInfo,
  type AwsResourceType,
  findAwsAction,
  getAwsCapabilityMap,
  listAwsActions,
  listAwsResourceTypes,
  serviceNameForPrefix,
} from "./aws-catalogue.ts";
export {
  type AzureOperationInfo,
  getAzureCapabilityMap,
  listAzureOperations,
} from "./azure-map.ts";
export {
  CAPABILITIES,
  type Capability,
  type CapabilityMap,
  compareActionNames,
  isCapability,
} from "./capability.ts";
export {
  buildDenyIamAdminBoundaryPolicy,
  buildDenyIamAdminIdentityPolicy,
  listIamAdministerActions,
} from "./deny-iam-admin.ts";
export {
  MANAGED_POLICY_MAX_CHARS,
  measurePolicySize,
  type PolicyDocument,
  type PolicyStatement,
} from "./policy-document.ts";
export { validateIdentityPolicy } from "./validate-policy-document.ts";
