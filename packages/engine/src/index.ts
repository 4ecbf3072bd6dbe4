export { ActionIndex } from "./analyze/action-index.ts";
export type {
  AccountAnalysis,
  AnalysisStats,
  GrantSource,
  PrincipalAccessSummary,
  PrincipalRow,
  PrincipalType,
  ResourceAccessSummary,
  ResourcePrincipalType,
  ResourceRow,
  ResourceType,
} from "./analyze/analysis-types.ts";
export type { AnalyzeOptions } from "./analyze/analyze-account.ts";
export { analyzeAccount, principalReach } from "./analyze/analyze-account.ts";
export { type ChangeScope, changeScope } from "./analyze/change-scope.ts";
export type { AccessLevel } from "./analyze/decision-at.ts";
export { formatGrantSource } from "./analyze/format-grant-source.ts";
export { reachPrefixes } from "./analyze/reach-prefixes.ts";
export {
  type Arn,
  accountOfArn,
  isPartition,
  PARTITIONS,
  type Partition,
  parseArn,
} from "./arn/index.ts";
export { ALWAYS_ALLOWED_ACTIONS, isAlwaysAllowedAction } from "./authorize/always-allowed.ts";
export type {
  AuthorizationRequest,
  ContextValue,
  SessionInputs,
} from "./authorize/authorization-request.ts";
export type {
  AuthorizationResult,
  Decision,
  MatchedStatement,
} from "./authorize/authorization-result.ts";
export { authorize } from "./authorize/authorize.ts";
export {
  AWS_PROTECTED_RESOURCES,
  type ProtectedResourceRule,
  refusedByAws,
} from "./authorize/aws-protected-resources.ts";
export {
  formatAuthorization,
  formatConditionAtom,
  formatFormula,
} from "./authorize/format-authorization.ts";
// Azure's functions, its error and its input schema load zod: they are exported by
// `@sightline/engine/azure` (src/azure/index.ts). Its types, erased at run time, are here too.
export type { AzureAnalyzeOptions } from "./azure/analyze-azure.ts";
export type {
  AzureDenyAssignmentInput,
  AzureDenyAssignmentProperties,
  AzureDenyPrincipalInput,
  AzureDirectoryObjectInput,
  AzureGroupInput,
  AzurePermissionInput,
  AzureResourceInput,
  AzureRoleAssignmentInput,
  AzureRoleDefinitionInput,
  AzureSnapshot,
} from "./azure/azure-snapshot.ts";
export { ENGINE_VERSION } from "./engine-version.ts";
export type {
  AccessEdgeAttributes,
  AccessGraph,
  AccessGraphOptions,
  AccessGraphStats,
  AccessNodeAttributes,
  AccessNodeKind,
  AssumeAction,
  EdgeGrant,
} from "./graph/access-graph-types.ts";
export { buildAccessGraph } from "./graph/build-access-graph.ts";
export type { Issue } from "./issues.ts";
export type { ConditionAtom, Formula } from "./logic/formula.ts";
export { evaluateFormula, listAtoms } from "./logic/formula.ts";
export {
  findResourceAccessPaths,
  streamResourceAccessPaths,
} from "./paths/find-resource-access-paths.ts";
export {
  type AccessPath,
  type AccessPathQuery,
  type AccessPathStream,
  DEFAULT_MAX_ACCESS_PATH_NODES,
  DEFAULT_MAX_PATH_ENTRIES,
  MAX_ACCESS_PATH_NODES,
  PATH_SERVICES,
  type PathService,
  type ResourceAccessPaths,
} from "./paths/path-query.ts";
export {
  iamAdminPaths,
  type ReportedAccessPath,
  reportedAccessPaths,
} from "./paths/reported-access-paths.ts";
export { type ShortestPathOptions, shortestPathsTo } from "./paths/shortest-paths.ts";
export { matchGlob } from "./policy/glob.ts";
export { parsePolicyDocument } from "./policy/parse-policy-document.ts";
export type {
  ConditionClause,
  Effect,
  Policy,
  PolicyType,
  PrincipalSet,
  Statement,
} from "./policy/policy-types.ts";
export type {
  AccountData,
  AccountModel,
  PrincipalRecord,
  ResourcePolicyRecord,
} from "./snapshot/account-model.ts";
export type {
  AccountSnapshot,
  OrganizationInput,
  OrganizationLevelInput,
  PolicyInput,
} from "./snapshot/account-snapshot.ts";
export { createAccountModel } from "./snapshot/create-account-model.ts";
export { parseAuthorizationDetails } from "./snapshot/parse-authorization-details.ts";
export type {
  AuthorizationDetails,
  IamGroup,
  IamRole,
  IamUser,
} from "./snapshot/snapshot-types.ts";
