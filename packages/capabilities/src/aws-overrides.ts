import type { Capability } from "./capability.ts";

export interface AwsOverride {
  capabilities: readonly Capability[];
  /** One line: why the rules are wrong here, or why we differ from k9. */
  reason: string;
}

/**
 * Reviewed exceptions to the rules, keyed by action (canonical case). Every entry must name an
 * action that exists in iam-data (a test checks it).
 */
export const AWS_OVERRIDES: Readonly<Record<string, AwsOverride>> = {};

const byLowerName = new Map(
  Object.entries(AWS_OVERRIDES).map(([action, o]) => [action.toLowerCase(), o] as const),
);

export function findAwsOverride(action: string): AwsOverride | undefined {
  return byLowerName.get(action.toLowerCase());
}
