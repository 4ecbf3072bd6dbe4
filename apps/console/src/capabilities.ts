/** The six access capabilities, in the reports' order. */
export const CAPABILITIES = [
  "administer-resource",
  "read-config",
  "use-resource",
  "read-data",
  "write-data",
  "delete-data",
] as const;
