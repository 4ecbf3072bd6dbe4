export {
  type FakeAzure,
  type FakeAzureCall,
  type FakeAzureEndpoints,
  type FakeAzureFault,
  type FakeAzureOptions,
  type FakeAzureService,
  startFakeAzure,
} from "./fake-azure.ts";
export type {
  FakeApp,
  FakeAzureModel,
  FakeGroup,
  FakeServicePrincipal,
  FakeUser,
} from "./fake-model.ts";
export { applicationCertificate, loopbackCertificate } from "./fake-tls.ts";
export * as smallTenant from "./small-tenant.ts";
