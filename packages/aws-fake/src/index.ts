export type {
  CloudTrailDetail,
  CloudTrailEvent,
} from "./control/cloudtrail-event.ts";
export type { EventDestination, EventPost, FakeControl } from "./control/fake-control.ts";
export type { PrincipalKind } from "./control/model-edits.ts";
export type { KeyStateChange } from "./control/resource-control.ts";
export {
  type FakeAws,
  type FakeClientOptions,
  type FakeCredentials,
  type FakeSessionCredentials,
  startFakeAws,
} from "./fake-aws.ts";
export {
  type FakeCredentialVending,
  startFakeCredentialVending,
  type VendingAnswer,
  type VendingCall,
} from "./fake-credential-vending.ts";
export type { AlterationKind, ErrorFaultKind, FaultKind } from "./fake-errors.ts";
export type {
  FakeAccountModel,
  FakeAssumableRole,
  FakeBucket,
  FakeKey,
  FakeOrganization,
  FakeOrganizationPolicy,
  GaadEntry,
} from "./fake-model.ts";
export type { FakeService } from "./fake-request.ts";
export type {
  Fault,
  ImportedFinding,
  RecordedCall,
  StoreBodies,
  StoredObject,
} from "./fake-state.ts";
export { type CredentialReportUser, credentialReportCsv } from "./services/iam-documents.ts";
export * as smallAccount from "./small-account.ts";
