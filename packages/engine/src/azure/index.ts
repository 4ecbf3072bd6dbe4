/**
 * The Azure analysis: `@sightline/engine/azure`. Apart from the main entry because it reads its
 * input through zod schemas, whose loading (zod and the schemas built when the module loads)
 * took longer than analysing a 100-principal AWS account: a process that analyses AWS accounts
 * alone no longer pays for it. The input types stay importable from the main entry too (types
 * cost nothing at run time).
 */
export {
  type AzureAnalyzeOptions,
  analyzeAzureSubscription,
  azureResourceMetadata,
} from "./analyze-azure.ts";
export { AzureSnapshotError } from "./azure-model.ts";
export {
  type AzureDenyAssignmentInput,
  type AzureDenyAssignmentProperties,
  type AzureDenyPrincipalInput,
  type AzureDirectoryObjectInput,
  type AzureGroupInput,
  type AzurePermissionInput,
  type AzureResourceInput,
  type AzureRoleAssignmentInput,
  type AzureRoleDefinitionInput,
  type AzureSnapshot,
  azureSnapshotSchema,
} from "./azure-snapshot.ts";
