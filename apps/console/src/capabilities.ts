/**
 * The six access capabilities, in the reports' order. A copy of the domain's list: the console
 * takes only types from Sightline's packages, so that no schema library enters its bundle, and
 * `test/capabilities.test.ts` holds the two equal.
 */
export const CAPABILITIES = [
  "administer-resource",
  "read-config",
  "use-resource",
  "read-data",
  "write-data",
  "delete-data",
] as const;
