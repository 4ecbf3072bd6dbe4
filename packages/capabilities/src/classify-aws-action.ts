import { splitActionName } from "./action-words.ts";
import type { AwsAccessLevel } from "./aws-access-level.ts";
import { findAwsOverride } from "./aws-overrides.ts";
import { AWS_RULES, type AwsActionFacts } from "./aws-rules.ts";
import { type Capability, sortCapabilities } from "./capability.ts";

export interface AwsActionInput {
  prefix: string;
  name: string;
  accessLevel: AwsAccessLevel;
  /** iam-data service category (`storage`, `databases`, …), if it has one. */
  category?: string | undefined;
}

export interface AwsClassification {
  capabilities: Capability[];
  /** Id of the rule that decided, or `override` when the reviewed table did. */
  rule: string;
  /** The override's reason, when one applied. */
  reason?: string;
}

/** Applies the ordered rules only (no override table); used to measure how well rules generalise. */
export function classifyAwsActionByRules(input: AwsActionInput): AwsClassification {
  const facts: AwsActionFacts = { ...input, words: splitActionName(input.name) };
  for (const rule of AWS_RULES) {
    const caps = rule.match(facts);
    if (caps) return { capabilities: sortCapabilities(caps), rule: rule.id };
  }
  throw new Error(`no rule matched ${input.prefix}:${input.name}`);
}

/** The rules, then the reviewed override table. */
export function classifyAwsAction(input: AwsActionInput): AwsClassification {
  const override = findAwsOverride(`${input.prefix}:${input.name}`);
  if (override) {
    return {
      capabilities: sortCapabilities(override.capabilities),
      rule: "override",
      reason: override.reason,
    };
  }
  return classifyAwsActionByRules(input);
}
