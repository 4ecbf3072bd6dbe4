/** shared/ sits beside the repository checkout (…/main and …/shared). */
export const SHARED_REFERENCE = new URL("../../../../shared/reference/", import.meta.url);
export const AZURE_REFERENCE = new URL("azure/", SHARED_REFERENCE);
export const K9_REFERENCE = new URL("k9/", SHARED_REFERENCE);
