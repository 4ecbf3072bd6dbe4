import type { AccessChange, ChangeCause } from "@sightline/domain";

/**
 * Causes of a comparison's changes (`ChangeCause` of `@sightline/domain`), read from the changes
 * themselves: who changed, and which policy grants it now (`grantedBy`, as the engine's
 * `formatGrantSource` names policies). An event step refines them from its events (`explain`).
 */

/** A policy as `grantedBy` names it, without the statements (they differ from row to row). */
export interface NamedGrant {
  policyType: "managed" | "group-managed" | "inline" | "group-inline" | "resource" | "other";
  /** A managed policy's ARN; a resource policy's resource ARN. */
  arn?: string;
  /** The group it comes through (`via group '…'`). */
  group?: string;
}

const SIDS = / \[[^\]]*\]$/;
const MANAGED = /^.* \((managed|group-managed), (arn:.+?)\)(?: via group '(.+)')?$/;
const INLINE = /^(inline|group-inline) '.*?'(?: via group '(.+)')?$/;
const RESOURCE = /^resource policy of (\S+)$/;

/** A `grantedBy` entry without its statements: what tells one policy from another. */
export const grantPolicy = (name: string) => name.replace(SIDS, "");

// An analysis names the same few policies on thousands of rows: each is read once.
const parsed = new Map<string, NamedGrant>();

/** Reads back one `grantedBy` entry (`formatGrantSource`'s words). */
export function parseGrant(name: string): NamedGrant {
  let grant = parsed.get(name);
  if (!grant) {
    if (parsed.size >= 100_000) parsed.clear();
    grant = readGrant(name);
    parsed.set(name, grant);
  }
  return grant;
}

function readGrant(name: string): NamedGrant {
  const policy = grantPolicy(name);
  const managed = MANAGED.exec(policy);
  if (managed)
    return {
      policyType: managed[1] as "managed" | "group-managed",
      ...(managed[2] ? { arn: managed[2] } : {}),
      ...(managed[3] ? { group: managed[3] } : {}),
    };
  const inline = INLINE.exec(policy);
  if (inline)
    return {
      policyType: inline[1] as "inline" | "group-inline",
      ...(inline[2] ? { group: inline[2] } : {}),
    };
  const resource = RESOURCE.exec(policy);
  if (resource?.[1]) return { policyType: "resource", arn: resource[1] };
  return { policyType: "other" };
}

const isManaged = (grant: NamedGrant) =>
  grant.policyType === "managed" || grant.policyType === "group-managed";

/** The first managed policy among the grants: the one a reviewer is pointed to. */
function managedPolicyOf(grantedBy: readonly string[]): string | undefined {
  for (const name of grantedBy) {
    const grant = parseGrant(name);
    if (isManaged(grant) && grant.arn) return grant.arn;
  }
  return undefined;
}

/** A change's cause from the change alone: its principal and the policy that grants it now. */
export function causeOfChange(change: AccessChange): ChangeCause {
  const principalArn = change.principalArn;
  switch (change.kind) {
    case "iam-admin-gained":
    case "iam-admin-lost": {
      const policyArn = managedPolicyOf(change.grantedBy);
      return { kind: "iam-admin", principalArn, ...(policyArn ? { policyArn } : {}) };
    }
    case "principal-added":
    case "principal-removed":
    case "credential-created":
    case "credential-activated":
    case "credential-deactivated":
      return { kind: "principal", principalArn };
  }
  const grants = change.grantedBy.map(parseGrant);
  // Access from outside the account needs the resource's policy: it is what opened the
  // resource. Inside the account a principal's row also names the resource's policy when it
  // grants too (a key policy's statement for the account, a bucket policy naming a role): the
  // principal's own policies come first then, and the resource's only when they grant nothing.
  const resource = grants.find((g) => g.policyType === "resource");
  const own = grants.some((g) => g.policyType !== "resource" && g.policyType !== "other");
  if (resource?.arn && (change.kind === "external-access-gained" || !own))
    return { kind: "resource-policy", resourceArn: resource.arn };
  const managed = grants.find((g) => isManaged(g) && g.arn);
  if (managed?.arn) return { kind: "policy", principalArn, policyArn: managed.arn };
  if (grants.length > 0) return { kind: "policy", principalArn };
  return { kind: "principal", principalArn };
}

/** An event step's refinement of a change's cause (its events, `eventIds`). */
export type ExplainChange = (change: AccessChange, cause: ChangeCause) => ChangeCause;

/** Principals whose admin changes are remembered for folding (a comparison has few). */
const MAX_ADMIN_CHANGES = 10_000;

interface AdminChange {
  gained: boolean;
  /** The policies that make it an admin, without statements. */
  policies: Set<string>;
  cause: ChangeCause;
}

/** Whether a capability change is part of its principal becoming (or stopping being) an admin. */
function foldsUnder(admin: AdminChange, change: AccessChange): boolean {
  if (!admin.gained) return change.kind === "access-lost";
  const gained =
    change.kind === "access-gained" ||
    change.kind === "confidential-access-gained" ||
    change.kind === "external-access-gained";
  return gained && change.grantedBy.some((name) => admin.policies.has(grantPolicy(name)));
}

/**
 * The causes of one comparison's changes, in the order it finds them (a principal's admin change
 * comes before its capabilities): the capabilities a principal gained through the policy that
 * made it an admin, or lost with its admin, share the admin change's cause.
 */
export function changeCauses(
  explain: ExplainChange = (_, cause) => cause,
): (change: AccessChange) => ChangeCause {
  const admins = new Map<string, AdminChange>();
  return (change) => {
    if (change.kind === "iam-admin-gained" || change.kind === "iam-admin-lost") {
      const cause = explain(change, causeOfChange(change));
      if (admins.size < MAX_ADMIN_CHANGES)
        admins.set(change.principalArn, {
          gained: change.kind === "iam-admin-gained",
          policies: new Set(change.grantedBy.map(grantPolicy)),
          cause,
        });
      return cause;
    }
    const admin = admins.get(change.principalArn);
    if (admin && foldsUnder(admin, change)) return admin.cause;
    return explain(change, causeOfChange(change));
  };
}
