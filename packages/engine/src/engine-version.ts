/**
 * The version of what the analysis computes. Bump it with every change that alters rows for the
 * same input (the bench digests move): the service stores results under it, and re-analyses an
 * account's previous snapshot before comparing results of another version, so that an upgrade
 * is never reported as access changes.
 */
export const ENGINE_VERSION = "2026.11.29.2";
