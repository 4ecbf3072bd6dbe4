import type { AwsCloudTrailEvent } from "./aws-event.ts";
import type { AwsEventTarget } from "./event-target.ts";

/**
 * What one CloudTrail event asks of Sightline: these targets read again; nothing it does not
 * understand (`unknown`: the daily full analysis catches it); or nothing at all (`no-change`:
 * a failed or read-only call, or a policy type the collection does not read).
 */
export type TargetsOfEvent =
  | { readonly status: "targets"; readonly targets: AwsEventTarget[] }
  | { readonly status: "unknown"; readonly reason: string }
  | { readonly status: "no-change"; readonly reason: string };

export type TargetReader = (event: AwsCloudTrailEvent) => TargetsOfEvent;

/** IAM user, group and role names: AWS allows these characters, 128 at most. */
export const IAM_NAME = /^[\w+=,.@-]{1,128}$/;
/** A managed policy's ARN: the account's own or AWS's, with its path (any printable ASCII). */
export const POLICY_ARN = /^arn:[a-z-]{1,16}:iam::(\d{12}|aws):policy\/[\x21-\x7e]{1,1100}$/;
/** Bucket names, the legacy us-east-1 ones (capitals, underscores, 255 long) included. */
export const BUCKET_NAME = /^[A-Za-z0-9._-]{1,255}$/;
/** A key ID (a UUID or `mrk-…`) or its ARN; aliases are not keys. */
export const KEY_ID = /^(arn:[a-z-]{1,16}:kms:[a-z0-9-]{1,32}:\d{12}:key\/)?[A-Za-z0-9-]{1,128}$/;

export function targets(...found: AwsEventTarget[]): TargetsOfEvent {
  const unique = new Map(found.map((target) => [JSON.stringify(target), target]));
  return { status: "targets", targets: [...unique.values()] };
}

export function unknown(reason: string): TargetsOfEvent {
  return { status: "unknown", reason };
}

export function noChange(reason: string): TargetsOfEvent {
  return { status: "no-change", reason };
}

/** A string member at `path` under an object, or undefined. */
export function memberAt(object: unknown, ...path: string[]): string | undefined {
  let at = object;
  for (const key of path) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === "string" ? at : undefined;
}

/** The request parameter `name` when it matches `pattern`. */
export function parameter(
  event: AwsCloudTrailEvent,
  name: string,
  pattern: RegExp,
): string | undefined {
  const value = memberAt(event.detail.requestParameters, name);
  return value !== undefined && pattern.test(value) ? value : undefined;
}

/** The response element at `path` when it matches `pattern`. */
export function response(
  event: AwsCloudTrailEvent,
  pattern: RegExp,
  ...path: string[]
): string | undefined {
  const value = memberAt(event.detail.responseElements, ...path);
  return value !== undefined && pattern.test(value) ? value : undefined;
}

/** The IAM user that made the call, when it was one (its own keys and password need no name). */
export function callingUser(event: AwsCloudTrailEvent): string | undefined {
  const identity = event.detail.userIdentity;
  if (identity.type !== "IAMUser") return undefined;
  return identity.userName !== undefined && IAM_NAME.test(identity.userName)
    ? identity.userName
    : undefined;
}

/** Says which member was missing or malformed, so that a counted unknown event explains itself. */
export function missing(event: AwsCloudTrailEvent, what: string): TargetsOfEvent {
  return unknown(`${event.detail.eventName} names no valid ${what}`);
}
