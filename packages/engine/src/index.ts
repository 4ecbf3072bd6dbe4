export { ActionIndex } from "./analyze/action-index.ts";
export type {
  AccountAnalysis,
  AnalysisStats,
  PrincipalAccessSummary,
  PrincipalRow,
  PrincipalType,
  ResourceAccessSummary,
  ResourcePrincipalType,
  ResourceRow,
  ResourceType,
} from "./analyze/analysis-types.ts";
export type { AnalyzeOptions } from "./analyze/analyze-account.ts";
export { analyzeAccount } from "./analyze/analyze-account.ts";
export type { AccessLevel } from "./analyze/decision-at.ts";
export type { AuthorizationRequest, ContextValue } from "./authorize/authorization-request.ts";
export type {
  AuthorizationResult,
  Decision,
  MatchedStatement,
} from "./authorize/authorization-result.ts";
export { authorize } from "./authorize/authorize.ts";
export {
  formatAuthorization,
  formatConditionAtom,
  formatFormula,
} from "./authorize/format-authorization.ts";
export type { Issue } from "./issues.ts";
export type { ConditionAtom, Formula } from "./logic/formula.ts";
export { evaluateFormula, listAtoms } from "./logic/formula.ts";
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
  Partition,
} from "./snapshot/snapshot-types.ts";
export { PARTITIONS } from "./snapshot/snapshot-types.ts";
