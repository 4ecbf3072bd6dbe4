import type { Capability } from "./capability.ts";

/** One operation: whether it is a data action, and its capabilities. */
export type AzureOperationRow = [kind: "control" | "data", capabilities: Capability[]];

/** Shape of `src/generated/azure-operations.json`. */
export interface AzureMapFile {
  source: { files: Record<string, string>; note: string };
  /** Resource provider (`Microsoft.Storage`) -> operation -> row. */
  providers: Record<string, Record<string, AzureOperationRow>>;
}
