import type { FakeState } from "../fake-state.ts";
import { partitionOf } from "../fake-state.ts";
import type { CloudTrailEvent } from "./cloudtrail-event.ts";
import type { EventPost } from "./fake-control-types.ts";
import { replaceModel } from "./model-edits.ts";

/** AWS's AdministratorAccess, known to every account: added to a model that lacks it. */
export function administratorAccess(state: FakeState): string {
  const arn = `arn:${partitionOf(state)}:iam::aws:policy/AdministratorAccess`;
  const known = [
    ...(state.model.authorizationDetails?.Policies ?? []),
    ...(state.model.policiesOutsideGaad ?? []),
  ].some((policy) => policy.Arn === arn);
  if (!known) {
    const Document = {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
    };
    const policy = {
      PolicyName: "AdministratorAccess",
      PolicyId: "ANPAIWMBCKSKIEE64ZLYK",
      Arn: arn,
      Path: "/",
      DefaultVersionId: "v1",
      AttachmentCount: 0,
      PermissionsBoundaryUsageCount: 0,
      IsAttachable: true,
      PolicyVersionList: [{ Document, VersionId: "v1", IsDefaultVersion: true }],
    };
    replaceModel(state, {
      policiesOutsideGaad: [...(state.model.policiesOutsideGaad ?? []), policy],
    });
  }
  return arn;
}

/**
 * Posts an event as EventBridge's API destination would: the envelope as JSON, the token in
 * `x-sightline-event-token`. No answer within 10 s (or none at all) is status 0.
 */
export async function post(
  destination: { url: string; token: string },
  event: CloudTrailEvent,
): Promise<EventPost> {
  try {
    const response = await fetch(destination.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sightline-event-token": destination.token },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return { eventId: event.detail.eventID, url: destination.url, status: response.status };
  } catch {
    return { eventId: event.detail.eventID, url: destination.url, status: 0 };
  }
}
