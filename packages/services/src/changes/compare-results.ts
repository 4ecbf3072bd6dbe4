import { createHash } from "node:crypto";
import type { AccessChange, AccessReach, ChangeKind } from "@sightline/domain";
import {
  type AccessEntry,
  type CredentialState,
  compareCodePoints,
  compareEntries,
  type PrincipalRecord,
  type ReachEntry,
} from "../results/result-records.ts";
import type { StoredItem, StoredResourceItem } from "../results/stored-items.ts";

/** What names a comparison: the two analyses, and what the customer calls confidential. */
export interface ComparisonContext {
  previousExecutionId: string;
  executionId: string;
  /** Lower-case `resource_tag_confidentiality` values that make a resource confidential. */
  confidentialValues: ReadonlySet<string>;
}

/**
 * Pairs two streams sorted by `key` in code-point order: each item with its namesake of the
 * other stream, or alone. Holds one item of each side.
 */
export async function* mergeSorted<T>(
  left: AsyncIterable<T>,
  right: AsyncIterable<T>,
  key: (item: T) => string,
): AsyncGenerator<[T | undefined, T | undefined]> {
  const a = left[Symbol.asyncIterator]();
  const b = right[Symbol.asyncIterator]();
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    const order = x.done ? 1 : y.done ? -1 : compareCodePoints(key(x.value), key(y.value));
    if (order === 0) {
      yield [x.value, y.value];
      [x, y] = await Promise.all([a.next(), b.next()]);
    } else if (order < 0) {
      yield [x.value as T, undefined];
      x = await a.next();
    } else {
      yield [undefined, y.value as T];
      y = await b.next();
    }
  }
}

/** Pairs two sorted lists by their first `n` members (code-point order). */
function* mergeEntries<T extends readonly unknown[]>(
  left: readonly T[],
  right: readonly T[],
  n: number,
): Generator<[T | undefined, T | undefined]> {
  let i = 0;
  let j = 0;
  const compare = (a: T, b: T) => compareEntries(a, b, n);
  while (i < left.length || j < right.length) {
    const a = left[i];
    const b = right[j];
    const order = a === undefined ? 1 : b === undefined ? -1 : compare(a, b);
    if (order === 0) {
      yield [a, b];
      i++;
      j++;
    } else if (order < 0) {
      yield [a, undefined];
      i++;
    } else {
      yield [undefined, b];
      j++;
    }
  }
}

type ChangeFields = Omit<AccessChange, "changeId">;

function changeOf(context: ComparisonContext, fields: ChangeFields): AccessChange {
  const identity = [
    context.previousExecutionId,
    context.executionId,
    fields.kind,
    fields.principalArn,
    fields.serviceName,
    fields.accessCapability,
    fields.resourceArn,
  ].join("\u0000");
  const changeId = createHash("sha256").update(identity).digest("hex").slice(0, 32);
  return { changeId, ...fields };
}

const ADMIN_STATE = { yes: "admin", conditional: "admin under conditions", no: "not admin" };
const accessText = (entry: AccessEntry | ReachEntry, capability: string, conditional: 0 | 1) =>
  entry ? `${capability}${conditional ? " (conditional)" : ""}` : "no access";

function principalBase(p: PrincipalRecord) {
  return {
    principalArn: p.arn,
    principalName: p.name,
    principalType: p.type,
    serviceName: "",
    accessCapability: "",
    resourceArn: "",
    confidential: false,
  };
}

const CREDENTIALS = [
  ["password", "password"],
  ["accessKey1", "access_key_1"],
  ["accessKey2", "access_key_2"],
] as const;

/** Created, activated, deactivated (or deleted) credentials of a user. */
function credentialChange(
  before: CredentialState | undefined,
  after: CredentialState | undefined,
): { kind: ChangeKind; change: AccessChange["change"] } | undefined {
  if (!before && !after) return undefined;
  if (!before) return { kind: "credential-created", change: "added" };
  if (!after) return { kind: "credential-deactivated", change: "removed" };
  // A key rotated in place: the slot holds a new credential.
  if (before.lastRotated !== after.lastRotated && after.state === "Active")
    return { kind: "credential-created", change: "changed" };
  if (before.state === after.state) return undefined;
  return after.state === "Active"
    ? { kind: "credential-activated", change: "changed" }
    : { kind: "credential-deactivated", change: "changed" };
}

/** The changes of one principal present in both analyses. */
function* principalChanges(
  context: ComparisonContext,
  before: PrincipalRecord,
  after: PrincipalRecord,
): Generator<AccessChange> {
  const base = principalBase(after);
  const wasAdmin = before.iamAdmin !== "no";
  const isAdmin = after.iamAdmin !== "no";
  if (wasAdmin !== isAdmin)
    yield changeOf(context, {
      ...base,
      kind: isAdmin ? "iam-admin-gained" : "iam-admin-lost",
      change: "changed",
      before: ADMIN_STATE[before.iamAdmin],
      after: ADMIN_STATE[after.iamAdmin],
      grantedBy: [...after.iamAdminGrantedBy],
    });
  for (const [old, now] of mergeEntries(before.access, after.access, 3)) {
    const entry = (now ?? old) as AccessEntry;
    const [service, capability, resource] = entry;
    const fields = {
      ...base,
      serviceName: service,
      accessCapability: capability,
      resourceArn: resource,
    };
    if (old && now && old[3] === now[3]) continue;
    // Access that became unconditional is gained; access that now needs conditions is lost.
    const gained = !old || (now !== undefined && now[3] === 0);
    yield changeOf(context, {
      ...fields,
      kind: gained ? "access-gained" : "access-lost",
      change: !old ? "added" : !now ? "removed" : "changed",
      before: old ? accessText(old, capability, old[3]) : "no access",
      after: now ? accessText(now, capability, now[3]) : "no access",
      grantedBy: now ? [...now[4]] : [],
    });
  }
  for (const [field, name] of CREDENTIALS) {
    const old = before.credentials[field];
    const now = after.credentials[field];
    const found = credentialChange(old, now);
    if (!found) continue;
    yield changeOf(context, {
      ...base,
      ...found,
      accessCapability: name,
      before: old?.state ?? "none",
      after: now?.state ?? "deleted",
      grantedBy: [],
    });
  }
}

/**
 * Principals added and removed, IAM admin gained and lost, capabilities gained and lost per
 * service and resource, credentials created, activated and deactivated. A new principal is one
 * change (and one more if it is an IAM admin), not one per capability it holds.
 */
export async function* comparePrincipals(
  context: ComparisonContext,
  before: AsyncIterable<StoredItem<PrincipalRecord>>,
  after: AsyncIterable<StoredItem<PrincipalRecord>>,
): AsyncGenerator<AccessChange> {
  for await (const [was, is] of mergeSorted(before, after, (p) => p.key)) {
    if (was && is && was.sameAs(is)) continue;
    // Used since, or a credential changed, with the same access: only the details are read.
    const light = was && is && was.sameAccessAs?.(is) === true;
    const [old, now] = await Promise.all(
      light
        ? [was?.decodeWithoutAccess?.(), is?.decodeWithoutAccess?.()]
        : [was?.decode(), is?.decode()],
    );
    if (old && now) {
      yield* principalChanges(context, old, now);
      continue;
    }
    const principal = (now ?? old) as PrincipalRecord;
    yield changeOf(context, {
      ...principalBase(principal),
      kind: now ? "principal-added" : "principal-removed",
      change: now ? "added" : "removed",
      before: old ? principal.type : "none",
      after: now ? principal.type : "none",
      grantedBy: [],
    });
    if (now && now.iamAdmin !== "no")
      yield changeOf(context, {
        ...principalBase(now),
        kind: "iam-admin-gained",
        change: "added",
        before: "none",
        after: ADMIN_STATE[now.iamAdmin],
        grantedBy: [...now.iamAdminGrantedBy],
      });
  }
}

/** Who a resource's principal is, seen from the resource's account. */
function reachOf(entry: ReachEntry): AccessReach {
  const [principal, type, , inAccount] = entry;
  if (inAccount) return "account";
  if (principal === "*" || type === "Anonymous") return "everyone";
  return type === "Account" ? "external-account" : "external-principal";
}

const nameOf = (principal: string) =>
  principal.slice(Math.max(principal.lastIndexOf("/"), principal.lastIndexOf(":")) + 1);

/**
 * Access that newly reaches a resource from outside its account (a principal, a whole account,
 * everyone), and access that newly reaches a confidential resource. The principals' own side of
 * the same access is in `comparePrincipals`.
 */
export async function* compareResources(
  context: ComparisonContext,
  before: AsyncIterable<StoredResourceItem>,
  after: AsyncIterable<StoredResourceItem>,
): AsyncGenerator<AccessChange> {
  for await (const [was, is] of mergeSorted(before, after, (r) => r.key)) {
    if (!is) continue;
    const confidential = context.confidentialValues.has(is.confidentiality.toLowerCase());
    if (confidential ? was?.sameAs(is) : was?.sameOutsideAs(is)) continue;
    const [old, now] = await Promise.all(
      confidential ? [was?.decode(), is.decode()] : [was?.decodeOutside(), is.decodeOutside()],
    );
    for (const [was, entry] of mergeEntries(old?.reach ?? [], now.reach, 3)) {
      if (!entry || was) continue;
      const reach = reachOf(entry);
      if (reach === "account" && !confidential) continue;
      const [principal, principalType, capability, , conditional, grantedBy] = entry;
      yield changeOf(context, {
        kind: reach === "account" ? "confidential-access-gained" : "external-access-gained",
        change: "added",
        principalArn: principal,
        principalName: nameOf(principal),
        principalType,
        serviceName: now.service,
        accessCapability: capability,
        resourceArn: now.arn,
        reach,
        confidential,
        before: "no access",
        after: accessText(entry, capability, conditional),
        grantedBy: [...grantedBy],
      });
    }
  }
}
