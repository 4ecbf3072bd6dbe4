import { groupPrincipals } from "../analyze/principal-groups.ts";
import type { ReceivedAssignment, Signature } from "./azure-analysis-types.ts";
import type { AzureAssignment, AzureDeny, AzureModel, AzurePrincipal } from "./azure-model.ts";

/** The principals grouped by signature, and the indexes the resource rows read them by. */
export interface AzureSignatures {
  /** In the order of their first member. */
  signatures: Signature[];
  /** The assignments at each scope. */
  assignmentsAt: Map<string, AzureAssignment[]>;
  /** The signatures that receive each assignment. */
  signaturesOfAssignment: Map<AzureAssignment, Signature[]>;
}

/**
 * Groups the principals by what reaches them (the assignments to them and to their groups,
 * and how each is received; the deny assignments that apply to them), as the AWS analysis
 * groups principals by policy set (`groupPrincipals`): each signature is evaluated once.
 */
export function groupBySignature(model: AzureModel): AzureSignatures {
  const byPrincipal = new Map<string, AzureAssignment[]>();
  const assignmentsAt = new Map<string, AzureAssignment[]>();
  for (const a of model.assignments) {
    pushTo(byPrincipal, a.principal, a);
    pushTo(assignmentsAt, a.scopeKey, a);
  }
  /** What reaches the first member of each signature. */
  const reaching = new Map<string, { assignments: ReceivedAssignment[]; denies: AzureDeny[] }>();
  const groups = groupPrincipals([...model.principals.values()], (p) => {
    const ids = [p.key, ...p.groups];
    const assignments = ids.flatMap((id) =>
      (byPrincipal.get(id) ?? []).map((assignment) => ({ assignment, viaGroup: id !== p.key })),
    );
    assignments.sort((x, y) => x.assignment.index - y.assignment.index);
    const denies = model.denies.filter((d) => denyApplies(d, ids));
    const key = `${assignments.map((x) => `${x.assignment.index}${x.viaGroup ? "g" : "d"}`).join(",")}|${denies.map((d) => d.index).join(",")}`;
    if (!reaching.has(key)) reaching.set(key, { assignments, denies });
    return key;
  });
  const signatures: Signature[] = [];
  const signaturesOfAssignment = new Map<AzureAssignment, Signature[]>();
  const sub = `${model.subscriptionScope}/`;
  for (const [key, members] of groups) {
    const { assignments, denies } = reaching.get(key) as {
      assignments: ReceivedAssignment[];
      denies: AzureDeny[];
    };
    const below = new Set<string>();
    for (const { assignment } of assignments)
      if (assignment.scopeKey.startsWith(sub)) below.add(assignment.scopeKey);
    for (const d of denies) if (d.scopeKey.startsWith(sub)) below.add(d.scopeKey);
    const signature: Signature = {
      key,
      assignments,
      denies,
      members,
      memberIds: members.map((p: AzurePrincipal) => p.id),
      memberTypes: members.map((p: AzurePrincipal) => p.type),
      scopesBelowSubscription: below,
      accessByScope: new Map(),
    };
    signatures.push(signature);
    for (const { assignment } of assignments) pushTo(signaturesOfAssignment, assignment, signature);
  }
  return { signatures, assignmentsAt, signaturesOfAssignment };
}

/**
 * A deny assignment applies to a principal it names (or names a group of, or names all
 * principals through `SystemDefined`) unless the principal, or a group it belongs to, is excluded.
 */
export function denyApplies(d: AzureDeny, ids: readonly string[]): boolean {
  if (ids.some((id) => d.excluded.has(id))) return false;
  return d.everyone || ids.some((id) => d.principals.has(id));
}

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
