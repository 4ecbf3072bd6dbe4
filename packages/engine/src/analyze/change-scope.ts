import type { Policy } from "../policy/policy-types.ts";
import { matchesPatternAt } from "../policy/wildcard.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccountSnapshot } from "../snapshot/account-snapshot.ts";

/**
 * What a change between two snapshots of one account can reach: the principals whose rows may
 * differ (their access, their admin status, their reach on any resource) and the resources whose
 * rows may differ for every principal. Everything else is the same in both analyses.
 */
export type ChangeScope =
  | { kind: "all"; reason: string }
  | { kind: "some"; principals: ReadonlySet<string>; resources: ReadonlySet<string> };

type Entry = Record<string, unknown>;

/** JSON with object keys sorted: two reads of one entity in another key order are equal. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Entry).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * Equal as JSON: the same object (a patched snapshot keeps the entries it did not read again),
 * the same text, or the same text once keys are sorted (another read of the same entity).
 */
const alike = (a: unknown, b: unknown) =>
  a === b || JSON.stringify(a) === JSON.stringify(b) || stable(a) === stable(b);

const asObject = (value: unknown): Entry =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Entry) : {};

function byArn(details: Entry, list: string): Map<string, Entry> {
  const entries = Array.isArray(details[list]) ? (details[list] as unknown[]) : [];
  const map = new Map<string, Entry>();
  for (const e of entries) {
    const entry = asObject(e);
    if (typeof entry.Arn === "string") map.set(entry.Arn, entry);
  }
  return map;
}

/** The keys whose entries differ (added, removed or changed), compared as `view` shows them. */
function changedKeys<T>(
  before: ReadonlyMap<string, T>,
  after: ReadonlyMap<string, T>,
  view: (entry: T) => unknown = (e) => e,
): string[] {
  const keys: string[] = [];
  for (const [key, entry] of before) {
    const other = after.get(key);
    if (other === undefined || !alike(view(entry), view(other))) keys.push(key);
  }
  for (const key of after.keys()) if (!before.has(key)) keys.push(key);
  return keys;
}

/** A managed policy as its attachments see it: its default version's document. */
function defaultDocument(entry: Entry): unknown {
  const versions = Array.isArray(entry.PolicyVersionList) ? entry.PolicyVersionList : [];
  const current = versions.map(asObject).find((v) => v.IsDefaultVersion === true);
  return { id: entry.DefaultVersionId, document: current?.Document };
}

const LISTS = ["UserDetailList", "GroupDetailList", "RoleDetailList", "Policies"];

/** The principals a resource policy names (by ARN or unique ID). */
function namedBy(policy: Policy | undefined, model: AccountModel): string[] {
  const named: string[] = [];
  for (const statement of policy?.statements ?? [])
    for (const set of [statement.principal, statement.notPrincipal])
      for (const value of set?.aws ?? []) {
        if (model.principals.has(value)) named.push(value);
        else if (!value.includes(":"))
          for (const p of model.principals.values()) if (p.id === value) named.push(p.arn);
      }
  return named;
}

/**
 * Does one of the principal's identity Allow statements single out `arn` (or its objects)? Only
 * then does its own summary evaluate the resource, and with it the resource's policy: a statement
 * on `*` is evaluated on a stand-in no resource policy governs.
 */
function singlesOut(p: PrincipalRecord, arn: string): boolean {
  const objects = `${arn}/*`;
  for (const policy of [
    ...p.identityPolicies,
    ...(p.permissionsBoundary ? [p.permissionsBoundary] : []),
  ])
    for (const statement of policy.statements) {
      if (statement.notResource) return true;
      const patterns = statement.resource ?? [];
      for (let i = 0; i < patterns.length; i++) {
        if (patterns[i] === "*") continue;
        if ((patterns[i] as string).includes("${")) return true;
        if (matchesPatternAt(patterns, i, arn) || matchesPatternAt(patterns, i, objects))
          return true;
      }
    }
  return false;
}

function holdersOf(model: AccountModel, test: (p: PrincipalRecord) => boolean): string[] {
  const arns: string[] = [];
  for (const p of model.principals.values()) if (test(p)) arns.push(p.arn);
  return arns;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  stable([...(a ?? [])].sort()) === stable([...(b ?? [])].sort());

/**
 * The scope of the change from `before` to `after` (one account's snapshots, with their models):
 * a principal's own entry changed, a managed policy attached to principals (through their groups
 * too, or as their boundary), a group's policies (its members), a resource policy (that resource,
 * and the principals it names, or every principal when it names the account or anyone). Whatever
 * else changed (the organisation's policies, the account, an unreadable key) reaches everything.
 */
export function changeScope(
  before: { snapshot: AccountSnapshot; model: AccountModel },
  after: { snapshot: AccountSnapshot; model: AccountModel },
): ChangeScope {
  const [b, a] = [before.snapshot, after.snapshot];
  if (b.accountId !== a.accountId || b.partition !== a.partition)
    return { kind: "all", reason: "the account differs" };
  if (stable(b.organization) !== stable(a.organization))
    return { kind: "all", reason: "the organisation's policies changed" };
  if (!sameList(b.awsManagedKeys, a.awsManagedKeys))
    return { kind: "all", reason: "the AWS managed keys changed" };
  if (!sameList(b.unreadableKeyPolicies, a.unreadableKeyPolicies))
    return { kind: "all", reason: "the unreadable key policies changed" };
  const [bd, ad] = [asObject(b.authorizationDetails), asObject(a.authorizationDetails)];
  const rest = (d: Entry) =>
    Object.fromEntries(Object.entries(d).filter(([k]) => !LISTS.includes(k)));
  if (stable(rest(bd)) !== stable(rest(ad)))
    return { kind: "all", reason: "the authorization details changed outside their lists" };
  const principals = new Set<string>();
  const resources = new Set<string>();
  const models = [before.model, after.model];
  const addAll = (arns: Iterable<string>) => {
    for (const arn of arns) principals.add(arn);
  };

  addAll(changedKeys(byArn(bd, "UserDetailList"), byArn(ad, "UserDetailList")));
  const [bRoles, aRoles] = [byArn(bd, "RoleDetailList"), byArn(ad, "RoleDetailList")];
  addAll(changedKeys(bRoles, aRoles));
  for (const arn of changedKeys(bRoles, aRoles, (r) => r.AssumeRolePolicyDocument ?? null))
    resources.add(arn);
  for (const group of changedKeys(byArn(bd, "GroupDetailList"), byArn(ad, "GroupDetailList")))
    for (const model of models) addAll(holdersOf(model, (p) => p.groupArns.includes(group)));
  const [bPolicies, aPolicies] = [byArn(bd, "Policies"), byArn(ad, "Policies")];
  for (const policy of changedKeys(bPolicies, aPolicies, defaultDocument))
    for (const model of models)
      addAll(
        holdersOf(
          model,
          (p) =>
            p.permissionsBoundary?.id === policy || p.identityPolicies.some((x) => x.id === policy),
        ),
      );
  const [bResources, aResources] = [
    new Map(Object.entries(asObject(b.resourcePolicies))),
    new Map(Object.entries(asObject(a.resourcePolicies))),
  ];
  for (const arn of changedKeys(bResources, aResources)) resources.add(arn);
  const [bBuckets, aBuckets] = [new Set(b.buckets ?? []), new Set(a.buckets ?? [])];
  for (const bucket of bBuckets) if (!aBuckets.has(bucket)) resources.add(bucket);
  for (const bucket of aBuckets) if (!bBuckets.has(bucket)) resources.add(bucket);
  // A changed resource (a role's trust policy too): its row for everyone, and the principals it
  // names or whose own policies single it out. Their rows on other resources stay as they were.
  for (const arn of resources)
    for (const model of models) {
      addAll(namedBy(model.resourcePolicies.get(arn)?.policy, model));
      addAll(holdersOf(model, (p) => singlesOut(p, arn)));
    }
  return { kind: "some", principals, resources };
}
