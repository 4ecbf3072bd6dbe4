import type { AwsCloudTrailEvent } from "./aws-event.ts";
import type { AwsEventName } from "./aws-event-names.ts";
import {
  memberAt,
  noChange,
  type TargetReader,
  type TargetsOfEvent,
  targets,
} from "./read-event-fields.ts";

/** The policy types the collection reads; tag, backup and other policies grant nothing. */
const READ_POLICY_TYPES = new Set(["SERVICE_CONTROL_POLICY", "RESOURCE_CONTROL_POLICY"]);

/**
 * Every SCP and RCP event re-reads the organisation's policies along each monitored account's
 * path. Where the event says the policy's type and it is not one Sightline reads, nothing
 * changed for Sightline; `AttachPolicy` and the like name only a policy ID, so they count.
 */
const organization =
  (typeOf: (event: AwsCloudTrailEvent) => string | undefined): TargetReader =>
  (event) => {
    const type = typeOf(event);
    if (type !== undefined && !READ_POLICY_TYPES.has(type))
      return noChange(`${event.detail.eventName} of a ${type}: only SCPs and RCPs are read`);
    return targets({ kind: "organization" });
  };

const requested = (name: string) => (event: AwsCloudTrailEvent) =>
  memberAt(event.detail.requestParameters, name);
const answered = (event: AwsCloudTrailEvent) =>
  memberAt(event.detail.responseElements, "policy", "policySummary", "type");
const untyped = () => undefined;

const ORGANIZATIONS_READERS: Record<AwsEventName<"organizations.amazonaws.com">, TargetReader> = {
  CreatePolicy: organization((event) => requested("type")(event) ?? answered(event)),
  UpdatePolicy: organization(answered),
  DeletePolicy: organization(untyped),
  AttachPolicy: organization(untyped),
  DetachPolicy: organization(untyped),
  EnablePolicyType: organization(requested("policyType")),
  DisablePolicyType: organization(requested("policyType")),
  MoveAccount: organization(untyped),
};

export function targetsOfOrganizationsEvent(
  event: AwsCloudTrailEvent,
  name: AwsEventName<"organizations.amazonaws.com">,
): TargetsOfEvent {
  return ORGANIZATIONS_READERS[name](event);
}
