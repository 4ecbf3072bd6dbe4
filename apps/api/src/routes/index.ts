import type { RouteDef } from "../route.ts";
import { createApiKey, revokeApiKey } from "./admin-api-keys.ts";
import { putDirectCustomer } from "./admin-customers.ts";
import { healthz, readyz } from "./health.ts";
import {
  deleteMonitoredAccountRoute,
  listMonitoredAccountsRoute,
  putMonitoredAccount,
} from "./monitored-accounts.ts";
import { getPartnerRoute, putPartner } from "./partner.ts";
import { putPartnerCustomer } from "./partner-customer.ts";
import {
  awsCapabilities,
  azureCapabilities,
  defaultCapabilities,
  denyIamAdminBoundary,
  denyIamAdminIdentity,
} from "./static-documents.ts";

/** Every API route, in the order of the interface contract. */
export const routes: readonly RouteDef[] = [
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
  createApiKey,
  revokeApiKey,
  putDirectCustomer,
  healthz,
  readyz,
];
