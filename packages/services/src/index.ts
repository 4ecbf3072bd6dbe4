export {
  type AccountKey,
  accountPrincipals,
  accountResources,
  principalAccess,
  whoCan,
} from "./account-access/account-access.ts";
export {
  getAlertDestinations,
  putAlertDestinations,
  rotateAlertSecret,
} from "./alerts/alert-destinations.ts";
export {
  type AlertSettings,
  type AllowedHost,
  DEFAULT_ALERT_RETRY,
  parseAllowedHost,
  type ResolvedAddress,
  type Resolver,
  systemResolver,
} from "./alerts/alert-settings.ts";
export {
  alertIdOf,
  type EnqueueAlertsInput,
  enqueueAlerts,
} from "./alerts/enqueue-alerts.ts";
export { internalAddressReason, internalHostReason } from "./alerts/internal-addresses.ts";
export {
  ALERT_SIGNATURE_TOLERANCE_SECONDS,
  signAlert,
  verifyAlertSignature,
} from "./alerts/webhook-signature.ts";
export { checkWebhookUrl, RefusedWebhookUrl } from "./alerts/webhook-url.ts";
export type { AnalysisSettings } from "./analysis/analysis-settings.ts";
export type { RunOutcome } from "./analysis/run-analysis.ts";
export type { ServiceContext } from "./context.ts";
export { openForExecution, sealForExecution } from "./credentials/envelope.ts";
export { loadLocalMasterKeyFile } from "./credentials/local-master-key-file.ts";
export { kmsMasterKey, localMasterKey, type MasterKey } from "./credentials/master-key.ts";
export {
  type DestinationOwner,
  getDeliveryVerification,
} from "./delivery/delivery-verification.ts";
export {
  eventTokenHash,
  readEventSource,
  removeEventSource,
  rotateEventToken,
} from "./events/event-sources.ts";
export {
  eventSourceOfToken,
  receiveAwsEvent,
} from "./events/receive-aws-event.ts";
export {
  type AccessPaths,
  type AccessPathThreadOptions,
  AccessPathThreads,
  inThreadAccessPaths,
} from "./paths/access-path-threads.ts";
export { resourceAccessPaths } from "./paths/resource-access-paths.ts";
export { ALERT_QUEUE, type AlertJob } from "./queue/alert-queue.ts";
export {
  ANALYSIS_QUEUE,
  createQueues,
  DEFAULT_QUEUE_SETTINGS,
  type QueueSettings,
} from "./queue/analysis-queue.ts";
export { DEFAULT_LEASE_SETTINGS, type LeaseSettings } from "./queue/lease-keeper.ts";
export { readQueueFigures } from "./queue/queue-figures.ts";
export { drainJobQueue } from "./runtime/drain-job-queue.ts";
export { loadMasterKey } from "./runtime/load-master-key.ts";
export { type OpenedServices, openServiceContext } from "./runtime/open-service-context.ts";
export { startJobQueue } from "./runtime/start-job-queue.ts";
export { warnPendingOemRevocations } from "./runtime/warn-pending-oem-revocations.ts";
export { warnSharedAuditorRoles } from "./runtime/warn-shared-auditor-roles.ts";
export { PipelineConfig } from "./runtime/worker-config.ts";
export {
  alertSettingsOf,
  analysisSettingsOf,
  workerSettingsOf,
} from "./runtime/worker-settings.ts";
export { importSnapshot } from "./snapshots/import-snapshot.ts";
export {
  type AccountOwner,
  type TriggeredExecution,
  type TriggerRequest,
  triggerAnalysis,
} from "./triggers/trigger-analysis.ts";
export { alertPayloadOf, deliverAlert } from "./worker/alert-job.ts";
export { DEFAULT_EVENT_SETTINGS, type EventSettings } from "./worker/event-job.ts";
export { startWorker, type WorkerSettings } from "./worker/start-worker.ts";
