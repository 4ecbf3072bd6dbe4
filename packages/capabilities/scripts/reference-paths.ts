/** Reference data kept in the repository (see each folder's README for source and licence). */
export const REFERENCE = new URL("../reference/", import.meta.url);
export const AZURE_REFERENCE = new URL("azure/", REFERENCE);
export const K9_REFERENCE = new URL("k9/", REFERENCE);
export const AWS_MANAGED_POLICIES_REFERENCE = new URL("aws-managed-policies/", REFERENCE);
