import { analysisPrincipals, analysisResources } from "./schema.ts";

/** The columns a stored principal or resource is read with (not exported by the package). */
export const PRINCIPAL_COLUMNS = {
  principalArn: analysisPrincipals.principalArn,
  principalName: analysisPrincipals.principalName,
  principalType: analysisPrincipals.principalType,
  iamAdmin: analysisPrincipals.iamAdmin,
  data: analysisPrincipals.data,
  details: analysisPrincipals.details,
};

export const RESOURCE_COLUMNS = {
  resourceArn: analysisResources.resourceArn,
  resourceType: analysisResources.resourceType,
  resourceName: analysisResources.resourceName,
  confidentiality: analysisResources.confidentiality,
  data: analysisResources.data,
  outside: analysisResources.outside,
  holders: analysisResources.holders,
};
