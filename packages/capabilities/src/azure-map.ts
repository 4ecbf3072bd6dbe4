import type { AzureMapFile } from "./azure-map-file.ts";
import { CAPABILITIES, type CapabilityMap, compareActionNames } from "./capability.ts";
import raw from "./generated/azure-operations.json" with { type: "json" };

const file = raw as unknown as AzureMapFile;

export interface AzureOperationInfo {
  operation: string;
  /** Resource provider namespace (`Microsoft.Storage`). */
  provider: string;
  isDataAction: boolean;
  capabilities: readonly string[];
}

let azureMap: CapabilityMap | undefined;

/** Every wildcard-free Azure operation of the reference data, ordered by provider and name. */
export function listAzureOperations(): AzureOperationInfo[] {
  return Object.entries(file.providers).flatMap(([provider, ops]) =>
    Object.entries(ops).map(([operation, [kind, capabilities]]) => ({
      operation,
      provider,
      isDataAction: kind === "data",
      capabilities,
    })),
  );
}

/** Resource provider -> capability -> sorted operations. Shared and frozen: do not mutate. */
export function getAzureCapabilityMap(): CapabilityMap {
  if (azureMap) return azureMap;
  const map: CapabilityMap = {};
  for (const [provider, ops] of Object.entries(file.providers)) {
    const entry: CapabilityMap[string] = {};
    for (const cap of CAPABILITIES) {
      const list = Object.entries(ops)
        .filter(([, [, caps]]) => caps.includes(cap))
        .map(([op]) => op)
        .sort(compareActionNames);
      if (list.length > 0) entry[cap] = Object.freeze(list) as string[];
    }
    map[provider] = Object.freeze(entry);
  }
  azureMap = Object.freeze(map);
  return azureMap;
}
