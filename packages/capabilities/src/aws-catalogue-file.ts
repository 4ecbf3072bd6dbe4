import type { Capability } from "./capability.ts";

/** One action in the generated catalogue: access level, capabilities, resource type names. */
export type AwsActionRow = [
  accessLevel: string,
  capabilities: Capability[],
  resourceTypes: string[],
];

export interface AwsServiceEntry {
  /** Readable display name, the key of the capability map. */
  name: string;
  /** The service's name in iam-data. */
  iamName: string;
  category?: string;
  /** Resource type name -> ARN pattern. */
  resourceTypes: Record<string, string>;
  /** Action name (canonical case) -> row. */
  actions: Record<string, AwsActionRow>;
}

/** Shape of `src/generated/aws-actions.json`. */
export interface AwsCatalogueFile {
  source: { package: string; version: string; dataUpdatedAt: string };
  services: Record<string, AwsServiceEntry>;
}
