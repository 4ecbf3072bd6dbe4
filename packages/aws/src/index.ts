export {
  type FailedFinding,
  type ImportSecurityHubFindingsInput,
  type ImportSecurityHubFindingsResult,
  importSecurityHubFindings,
  SECURITY_HUB_BATCH,
} from "./alerts/import-security-hub-findings.ts";
export {
  describeChange,
  type FindingContext,
  securityHubFinding,
  severityOf,
} from "./alerts/security-hub-findings.ts";
export type { AwsCredentials, TemporaryCredentials } from "./aws-credentials.ts";
export type { AwsClientOptions, AwsService } from "./client-options.ts";
export { DEFAULT_MAX_ATTEMPTS } from "./client-options.ts";
export { collectAccount } from "./collect/collect-account.ts";
export type {
  BucketMetadata,
  CollectAccountInput,
  CollectedAccount,
  CollectionMetadata,
  CollectionWarning,
  CollectionWarningKind,
  KeyMetadata,
  RoleLastUsed,
} from "./collect/collection-types.ts";
export { COLLECTOR_ACTIONS, type CollectorAction } from "./collect/collector-actions.ts";
export type {
  AccessKeyUse,
  CredentialReport,
  CredentialReportRow,
} from "./collect/parse-credential-report.ts";
export { parseCredentialReport } from "./collect/parse-credential-report.ts";
export {
  type AssumeAuditorRoleInput,
  type AssumedRoleCredentials,
  assumeAuditorRole,
} from "./credentials/assume-auditor-role.ts";
export {
  credentialsFromOwnCredential,
  type OwnCredentials,
} from "./credentials/credentials-from-own-credential.ts";
export {
  type FetchVendedCredentialsInput,
  fetchVendedCredentials,
} from "./credentials/fetch-vended-credentials.ts";
export { MINIMUM_VALIDITY_MS } from "./credentials/require-validity.ts";
export { VendedCredentials, type VendingRequest } from "./credentials/vended-credentials.ts";
export {
  createKmsMasterKey,
  type DataKey,
  type KmsMasterKey,
  type KmsMasterKeyConfig,
} from "./deliver/create-kms-master-key.ts";
export {
  createS3Inbox,
  type MultipartUploadHooks,
  type PutFileOptions,
  type PutObjectOptions,
  type PutObjectResult,
  type S3Inbox,
  type S3InboxConfig,
  type StartedUpload,
} from "./deliver/create-s3-inbox.ts";
export {
  type EventQueueInput,
  regionOfQueueUrl,
} from "./events/event-queue.ts";
export {
  changeEventMessageVisibility,
  deleteEventMessage,
  type EventMessage,
  type ReceiveEventMessagesInput,
  receiveEventMessages,
} from "./events/receive-event-messages.ts";
export type {
  BucketRead,
  EventReads,
  GaadEntry,
  KeyRead,
  ReadEventTargetsInput,
  UserCredentialsRead,
  UserRead,
} from "./incremental/event-reads.ts";
export { patchCollection } from "./incremental/patch-collection.ts";
export { fullCollectionCalls, incrementalReadCalls } from "./incremental/read-estimate.ts";
export { readEventTargets } from "./incremental/read-event-targets.ts";
export { PARTITION_HOME_REGIONS } from "./partitions.ts";
