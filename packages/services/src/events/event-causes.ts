import type { AccessChange } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";
import { type ExplainChange, type NamedGrant, parseGrant } from "../changes/change-cause.ts";
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

/** How strongly a target explains a change: by name, or only as "anything may have" (SCPs). */
type Match = "named" | "anything" | undefined;

interface Subject {
  change: AccessChange;
  /** `user` or `role` and its name, for an IAM principal of the account. */
  entity?: { kind: string; name: string };
  links: PrincipalLinks;
  grants: NamedGrant[];
}

/** Whether an ARN names this bucket (or an object in it) or this key. */
function isBucket(arn: string, name: string): boolean {
  const at = arn.indexOf(":s3:::");
  if (!arn.startsWith("arn:") || at < 0) return false;
  const rest = arn.slice(at + ":s3:::".length);
  return rest === name || rest.startsWith(`${name}/`);
}
const isKey = (arn: string, keyId: string) => arn === keyId || arn.endsWith(`:key/${keyId}`);

function matchOf(target: StepTarget, subject: Subject): Match {
  const { change, entity, links, grants } = subject;
  const resources = [
    change.resourceArn,
    ...grants.flatMap((g) => (g.policyType === "resource" && g.arn ? [g.arn] : [])),
  ];
  switch (target.kind) {
    case "user":
      return entity?.kind === "user" && entity.name === target.name ? "named" : undefined;
    case "role": {
      if (entity?.kind === "role" && entity.name === target.name) return "named";
      // A trust policy is the role's resource policy: who may assume it changed.
      const role = resources.some(
        (arn) =>
          IAM_PRINCIPAL.exec(arn)?.[1] === "role" && IAM_PRINCIPAL.exec(arn)?.[2] === target.name,
      );
      return role ? "named" : undefined;
    }
    case "group":
      return links.groups.includes(target.name) || grants.some((g) => g.group === target.name)
        ? "named"
        : undefined;
    case "managed-policy":
      return links.policies.has(target.arn) || grants.some((g) => g.arn === target.arn)
        ? "named"
        : undefined;
    case "bucket":
      return resources.some((arn) => isBucket(arn, target.name)) ? "named" : undefined;
    case "key":
      return resources.some((arn) => isKey(arn, target.keyId)) ? "named" : undefined;
    case "organization":
    case "account":
      return "anything";
  }
}

/**
 * An event step's causes: each change names the events whose targets explain it — the
 * principal's own, a managed policy attached to it (directly, through a group, as its boundary),
 * a group it is in, the resource whose policy grants it. SCP events and events read whole explain
 * what nothing else names; a change no event names is the whole step's. Where the events say more
 * than the change (an SCP; the managed policy through which access was lost), the cause says it.
 */
export function eventCauses(
  events: readonly StepEvent[],
  snapshot: AccountSnapshot,
): ExplainChange {
  const everyEvent = events.map((e) => e.eventId);
  let links: Map<string, PrincipalLinks> | undefined;
  return (change, cause) => {
    links ??= linksOf(snapshot);
    const found = IAM_PRINCIPAL.exec(change.principalArn);
    const subject: Subject = {
      change,
      ...(found?.[1] && found[2] ? { entity: { kind: found[1], name: found[2] } } : {}),
      links: links.get(change.principalArn) ?? NO_LINKS,
      grants: change.grantedBy.map(parseGrant),
    };
    const named: StepEvent[] = [];
    const anything: StepEvent[] = [];
    const policies = new Set<string>();
    let onlyPolicies = true;
    for (const event of events) {
      const matches = event.targets.map((target) => [target, matchOf(target, subject)] as const);
      if (matches.some(([, m]) => m === "named")) {
        named.push(event);
        for (const [target, m] of matches)
          if (m !== "named") continue;
          else if (target.kind === "managed-policy") policies.add(target.arn);
          else onlyPolicies = false;
      } else if (matches.some(([, m]) => m === "anything")) anything.push(event);
    }
    if (named.length > 0) {
      const eventIds = named.map((e) => e.eventId);
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
      const eventIds = anything.map((e) => e.eventId);
      const scps = anything.every((e) => e.targets.some((t) => t.kind === "organization"));
      return scps && cause.kind !== "iam-admin"
        ? { kind: "organization", eventIds }
        : { ...cause, eventIds };
    }
    return { ...cause, eventIds: everyEvent };
  };
}
