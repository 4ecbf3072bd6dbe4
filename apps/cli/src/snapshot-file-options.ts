import type { ParseArgsConfig } from "node:util";
import type { SnapshotFiles } from "./load-snapshots.ts";
import { UsageError } from "./usage.ts";

/** A table of options for `parseArgs`. */
export type OptionTable = NonNullable<ParseArgsConfig["options"]>;

/** The options naming an exported account, common to every command. */
export const SNAPSHOT_FILE_OPTIONS = {
  "authorization-details": { type: "string", multiple: true },
  "resource-policies": { type: "string" },
  buckets: { type: "string", multiple: true },
  organization: { type: "string" },
} satisfies OptionTable;

export interface SnapshotFileValues {
  "authorization-details"?: string[] | undefined;
  "resource-policies"?: string | undefined;
  buckets?: string[] | undefined;
  organization?: string | undefined;
}

export function snapshotFilesOf(values: SnapshotFileValues): SnapshotFiles {
  const authorizationDetails = values["authorization-details"];
  if (!authorizationDetails) throw new UsageError("--authorization-details is required");
  return {
    authorizationDetails,
    ...(values["resource-policies"] ? { resourcePolicies: values["resource-policies"] } : {}),
    ...(values.buckets ? { buckets: values.buckets } : {}),
    ...(values.organization ? { organization: values.organization } : {}),
  };
}
