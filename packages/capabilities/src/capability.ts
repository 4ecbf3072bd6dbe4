/** The six access capabilities, in the order reports list them. */
export const CAPABILITIES = [
  "administer-resource",
  "read-config",
  "use-resource",
  "read-data",
  "write-data",
  "delete-data",
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** Service name -> capability -> sorted permission names (spec 2.7). */
export type CapabilityMap = Record<string, Partial<Record<Capability, string[]>>>;

export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

/** Case-insensitive order with a code-unit tie-break, so `iam:DeleteSSHPublicKey` sorts after `iam:DeleteSigningCertificate`. */
export function compareActionNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Capabilities in canonical order, without duplicates. */
export function sortCapabilities(caps: Iterable<Capability>): Capability[] {
  const set = new Set(caps);
  return CAPABILITIES.filter((c) => set.has(c));
}
