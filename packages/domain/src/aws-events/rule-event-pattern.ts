import { CLOUDTRAIL_DETAIL_TYPE } from "./aws-event.ts";
import { AWS_EVENT_NAMES, type AwsEventSource, EVENTBRIDGE_SOURCES } from "./aws-event-names.ts";

/** The EventBridge event pattern of the monitored account's rule (`ruleEventPattern`). */
export interface AwsEventRulePattern {
  readonly source: string[];
  readonly "detail-type": string[];
  readonly detail: { readonly eventSource: string[]; readonly eventName: string[] };
}

/**
 * The pattern that forwards exactly the listed events, derived from `AWS_EVENT_NAMES` so that
 * it never disagrees with it; `deploy/`'s templates carry the same (a test compares them).
 * Names are merged across services: a pair that matches no real call (kms `CreateUser`) costs
 * nothing, and one list keeps the pattern under EventBridge's default 2,048 characters.
 */
export function awsEventRulePattern(): AwsEventRulePattern {
  const eventSources = (Object.keys(AWS_EVENT_NAMES) as AwsEventSource[]).sort();
  const names = new Set(eventSources.flatMap((source) => AWS_EVENT_NAMES[source]));
  return {
    source: eventSources.map((eventSource) => EVENTBRIDGE_SOURCES[eventSource]).sort(),
    "detail-type": [CLOUDTRAIL_DETAIL_TYPE],
    detail: { eventSource: eventSources, eventName: [...names].sort() },
  };
}
