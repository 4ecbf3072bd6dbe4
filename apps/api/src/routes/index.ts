import type { Endpoint } from "../endpoint.ts";
import {
  customerWhoCan,
  getCustomerPrincipalAccess,
  getPartnerPrincipalAccess,
  listCustomerPrincipals,
  listCustomerResources,
  listPartnerPrincipals,
  listPartnerResources,
  partnerWhoCan,
} from "./account-access.ts";
import { createApiKey, revokeApiKey } from "./admin-api-keys.ts";
import { putDirectCustomer } from "./admin-customers.ts";
import { getOemIntegration, putOemIntegration } from "./admin-partners.ts";
import { getQueueFigures } from "./admin-queues.ts";
import {
  getCustomerAlertDestinations,
  getPartnerAlertDestinations,
  putCustomerAlertDestinations,
  putPartnerAlertDestinations,
  rotateCustomerAlertSecret,
  rotatePartnerAlertSecret,
} from "./alert-destinations.ts";
import { triggerCustomerAnalysis, triggerPartnerAnalysis } from "./analysis-triggers.ts";
import {
  listAllAuditEvents,
  listCustomerAuditEvents,
  listPartnerAuditEvents,
} from "./audit-events.ts";
import { receiveAwsEventRoute } from "./aws-events.ts";
import {
  listCustomerChanges,
  listCustomerFindings,
  listPartnerChanges,
  listPartnerFindings,
} from "./changes.ts";
import {
  deleteCustomerAccountRoute,
  listCustomerAccountsRoute,
  putCustomerAccount,
} from "./customer-accounts.ts";
import {
  customerDeliveryVerification,
  partnerDeliveryVerification,
} from "./delivery-verification.ts";
import { getDirectCustomerRoute, putDirectCustomerSettingsRoute } from "./direct-customer.ts";
import { customerEventSource, partnerEventSource } from "./event-sources.ts";
import { getExecutionRoute, listCustomerExecutions, listPartnerExecutions } from "./executions.ts";
import { healthz, readyz } from "./health.ts";
import {
  deleteMonitoredAccountRoute,
  listMonitoredAccountsRoute,
  putMonitoredAccount,
} from "./monitored-accounts.ts";
import { getPartnerRoute, putPartner } from "./partner.ts";
import { listPartnerCustomersRoute, putPartnerCustomer } from "./partner-customer.ts";
import { resourceAccessPathsRoute } from "./resource-access-paths.ts";
import {
  getCustomerReviewSettings,
  getPartnerReviewSettings,
  putCustomerReviewSettings,
  putPartnerReviewSettings,
} from "./review-settings.ts";
import {
  awsCapabilities,
  azureCapabilities,
  defaultCapabilities,
  denyIamAdminBoundary,
  denyIamAdminIdentity,
} from "./static-documents.ts";
import { customerApiKeys, partnerApiKeys } from "./tenant-api-keys.ts";
import { whoami } from "./whoami.ts";

/** Every API route: the interface contract's in its order, then the extensions. */
export const endpoints: readonly Endpoint[] = [
  awsCapabilities,
  azureCapabilities,
  defaultCapabilities,
  denyIamAdminBoundary,
  denyIamAdminIdentity,
  putPartner,
  getPartnerRoute,
  putPartnerCustomer,
  putMonitoredAccount,
  deleteMonitoredAccountRoute,
  listMonitoredAccountsRoute,
  resourceAccessPathsRoute,
  triggerCustomerAnalysis,
  triggerPartnerAnalysis,
  getExecutionRoute,
  listPartnerExecutions,
  listCustomerExecutions,
  listPartnerChanges,
  listCustomerChanges,
  listPartnerFindings,
  listCustomerFindings,
  listPartnerPrincipals,
  listCustomerPrincipals,
  getPartnerPrincipalAccess,
  getCustomerPrincipalAccess,
  partnerWhoCan,
  customerWhoCan,
  listPartnerResources,
  listCustomerResources,
  listPartnerCustomersRoute,
  whoami,
  getPartnerReviewSettings,
  putPartnerReviewSettings,
  getCustomerReviewSettings,
  putCustomerReviewSettings,
  putDirectCustomerSettingsRoute,
  getDirectCustomerRoute,
  putCustomerAccount,
  deleteCustomerAccountRoute,
  listCustomerAccountsRoute,
  partnerDeliveryVerification,
  customerDeliveryVerification,
  getPartnerAlertDestinations,
  putPartnerAlertDestinations,
  rotatePartnerAlertSecret,
  getCustomerAlertDestinations,
  putCustomerAlertDestinations,
  rotateCustomerAlertSecret,
  partnerEventSource.rotate,
  partnerEventSource.read,
  partnerEventSource.remove,
  customerEventSource.rotate,
  customerEventSource.read,
  customerEventSource.remove,
  receiveAwsEventRoute,
  partnerApiKeys.list,
  partnerApiKeys.create,
  partnerApiKeys.revoke,
  customerApiKeys.list,
  customerApiKeys.create,
  customerApiKeys.revoke,
  listPartnerAuditEvents,
  listCustomerAuditEvents,
  createApiKey,
  revokeApiKey,
  listAllAuditEvents,
  getQueueFigures,
  putDirectCustomer,
  putOemIntegration,
  getOemIntegration,
  healthz,
  readyz,
];
