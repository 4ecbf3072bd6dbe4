import type { AwsCloudTrailEvent } from "./aws-event.ts";
import { isAwsEventName, isAwsEventSource } from "./aws-event-names.ts";
import { noChange, type TargetsOfEvent, unknown } from "./read-event-fields.ts";
import { targetsOfIamEvent } from "./targets-of-iam-event.ts";
import { targetsOfOrganizationsEvent } from "./targets-of-organizations-event.ts";
import { targetsOfKmsEvent, targetsOfS3Event } from "./targets-of-resource-event.ts";

export type { TargetsOfEvent } from "./read-event-fields.ts";

/** Read-only calls CloudTrail may forward when a rule is wider than Sightline's pattern. */
const READ_ONLY_NAME = /^(Get|List|Describe|Head|Lookup|Search|Simulate)[A-Z]/;

/**
 * What one CloudTrail event asks Sightline to read again, from the names in its
 * `requestParameters` (or its answer, or its caller where the call names nobody). A failed
 * call changed nothing; a listed call whose names are missing or malformed, and any call not
 * listed in `AWS_EVENT_NAMES`, is `unknown`. Pure: the event is all it reads.
 */
export function targetsOfEvent(event: AwsCloudTrailEvent): TargetsOfEvent {
  const { eventSource, eventName, errorCode, readOnly } = event.detail;
  if (errorCode !== undefined)
    return noChange(`${eventName} failed (${errorCode}): a failed call changes nothing`);
  if (isAwsEventSource(eventSource)) {
    switch (eventSource) {
      case "iam.amazonaws.com":
        if (isAwsEventName(eventSource, eventName)) return targetsOfIamEvent(event, eventName);
        break;
      case "s3.amazonaws.com":
        if (isAwsEventName(eventSource, eventName)) return targetsOfS3Event(event, eventName);
        break;
      case "kms.amazonaws.com":
        if (isAwsEventName(eventSource, eventName)) return targetsOfKmsEvent(event, eventName);
        break;
      case "organizations.amazonaws.com":
        if (isAwsEventName(eventSource, eventName))
          return targetsOfOrganizationsEvent(event, eventName);
        break;
    }
  }
  if (readOnly === true || READ_ONLY_NAME.test(eventName))
    return noChange(`${eventName} is a read-only call`);
  return unknown(`${eventName} of ${eventSource} is not a call whose changes Sightline reads`);
}
