import type { AccessChange } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";
import { type ExplainChange, parseGrant } from "../changes/change-cause.ts";
import type { StepTarget } from "./step-target.ts";

/** An event a step applied, as `claimPendingEvents` returns it. */
export interface StepEvent {
  eventId: string;
  targets: readonly StepTarget[];
}

/** What links a principal to the targets that reach it: its groups and managed policies. */
interface PrincipalLinks {
  groups: readonly string[];
  /** Attached directly, through its groups, or as its permissions boundary. */
  policies: ReadonlySet<string>;
}

type GaadEntry = Record<string, unknown>;
const listOf = (value: unknown): GaadEntry[] =>
  Array.isArray(value)
    ? (value.filter((v) => typeof v === "object" && v !== null) as GaadEntry[])
    : [];
const text = (value: unknown) => (typeof value === "string" ? value : undefined);
const attached = (entry: GaadEntry): string[] => [
  ...listOf(entry.AttachedManagedPolicies).flatMap((p) => text(p.PolicyArn) ?? []),
  ...(text((entry.PermissionsBoundary as GaadEntry | undefined)?.PermissionsBoundaryArn) ?? []),
];

/** Each user's and role's links in the step's snapshot (GAAD's lists), by ARN. */
function linksOf(snapshot: AccountSnapshot): Map<string, PrincipalLinks> {
  const raw = snapshot.authorizationDetails;
  const details = (typeof raw === "string" ? JSON.parse(raw) : raw) as GaadEntry | undefined;
  const groupPolicies = new Map<string, string[]>();
  for (const group of listOf(details?.GroupDetailList)) {
    const name = text(group.GroupName);
    if (name) groupPolicies.set(name, attached(group));
  }
  const links = new Map<string, PrincipalLinks>();
  for (const user of listOf(details?.UserDetailList)) {
    const arn = text(user.Arn);
    if (!arn) continue;
    const groups = Array.isArray(user.GroupList)
      ? (user.GroupList as unknown[]).flatMap((g) => text(g) ?? [])
      : [];
    const policies = new Set([
      ...attached(user),
      ...groups.flatMap((g) => groupPolicies.get(g) ?? []),
    ]);
    links.set(arn, { groups, policies });
  }
  for (const role of listOf(details?.RoleDetailList)) {
    const arn = text(role.Arn);
    if (arn) links.set(arn, { groups: [], policies: new Set(attached(role)) });
  }
  return links;
}

const IAM_PRINCIPAL = /^arn:[^:]+:iam::\d{12}:(user|role)\/(?:.*\/)?([^/]+)$/;
const NO_LINKS: PrincipalLinks = { groups: [], policies: new Set() };

/** A key's ID, whether the event named it by ID or by ARN. */
const keyIdOf = (keyId: string) =>
  keyId.slice(keyId.lastIndexOf(":key/") + 1).replace(/^key\//, "");

/** What a target names, as the changes name it; undefined for what may reach anything. */
function nameOf(target: StepTarget): string | undefined {
  switch (target.kind) {
    case "user":
    case "role":
    case "group":
      return `${target.kind}:${target.name}`;
    case "managed-policy":
      return `policy:${target.arn}`;
    case "bucket":
      return `bucket:${target.name}`;
    case "key":
      return `key:${keyIdOf(target.keyId)}`;
    case "organization":
    case "account":
      return undefined;
  }
}

/** What a resource ARN (the change's, or a resource policy's) names: a bucket, a key, a role. */
function resourceName(arn: string): string | undefined {
  const s3 = arn.indexOf(":s3:::");
  if (s3 >= 0) return `bucket:${arn.slice(s3 + ":s3:::".length).split("/")[0]}`;
  const key = arn.indexOf(":key/");
  if (arn.includes(":kms:") && key >= 0) return `key:${arn.slice(key + ":key/".length)}`;
  // A trust policy is the role's resource policy: who may assume it changed.
  const role = IAM_PRINCIPAL.exec(arn);
  return role?.[1] === "role" ? `role:${role[2]}` : undefined;
}

/** Everything a change names that a target may name too. */
function namesOf(change: AccessChange, links: PrincipalLinks): Set<string> {
  const names = new Set<string>();
  const entity = IAM_PRINCIPAL.exec(change.principalArn);
  if (entity) names.add(`${entity[1]}:${entity[2]}`);
  for (const group of links.groups) names.add(`group:${group}`);
  for (const arn of links.policies) names.add(`policy:${arn}`);
  const resources = [change.resourceArn];
  for (const grant of change.grantedBy.map(parseGrant)) {
    if (grant.group) names.add(`group:${grant.group}`);
    if (grant.policyType === "resource" && grant.arn) resources.push(grant.arn);
    else if (grant.arn) names.add(`policy:${grant.arn}`);
  }
  for (const arn of resources) {
    const name = arn ? resourceName(arn) : undefined;
    if (name) names.add(name);
  }
  return names;
}

/**
 * An event step's causes: each change names the events whose targets explain it — the
 * principal's own, a managed policy attached to it (directly, through a group, as its boundary),
 * a group it is in, the resource whose policy grants it. SCP events and events read whole explain
 * what nothing else names; a change no event names is the whole step's. Where the events say more
 * than the change (an SCP; the managed policy through which access was lost), the cause says it.
 * The events are indexed by what their targets name: a change costs a look-up per name it has.
 */
export function eventCauses(
  events: readonly StepEvent[],
  snapshot: AccountSnapshot,
): ExplainChange {
  const everyEvent = events.map((e) => e.eventId);
  const byName = new Map<string, number[]>();
  const anything: number[] = [];
  events.forEach((event, index) => {
    for (const target of event.targets) {
      const name = nameOf(target);
      if (name === undefined) {
        if (anything.at(-1) !== index) anything.push(index);
        continue;
      }
      const list = byName.get(name) ?? [];
      if (list.at(-1) !== index) list.push(index);
      byName.set(name, list);
    }
  });
  const onlyScps = anything.every((i) => events[i]?.targets.some((t) => t.kind === "organization"));
  let links: Map<string, PrincipalLinks> | undefined;
  return (change, cause) => {
    links ??= linksOf(snapshot);
    const named = new Set<number>();
    const policies = new Set<string>();
    let onlyPolicies = true;
    for (const name of namesOf(change, links.get(change.principalArn) ?? NO_LINKS)) {
      const found = byName.get(name);
      if (!found) continue;
      for (const index of found) named.add(index);
      if (name.startsWith("policy:")) policies.add(name.slice("policy:".length));
      else onlyPolicies = false;
    }
    if (named.size > 0) {
      const eventIds = [...named].sort((a, b) => a - b).map((i) => everyEvent[i] ?? "");
      const [policyArn] = [...policies];
      // Access lost names no policy; the event says which managed policy took it.
      if (
        cause.kind === "principal" &&
        change.kind === "access-lost" &&
        onlyPolicies &&
        policyArn &&
        policies.size === 1
      )
        return { kind: "policy", principalArn: change.principalArn, policyArn, eventIds };
      return { ...cause, eventIds };
    }
    if (anything.length > 0) {
      const eventIds = anything.map((i) => everyEvent[i] ?? "");
      return onlyScps && cause.kind !== "iam-admin"
        ? { kind: "organization", eventIds }
        : { ...cause, eventIds };
    }
    return { ...cause, eventIds: everyEvent };
  };
}
