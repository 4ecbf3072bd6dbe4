import { FakeAwsError } from "../fake-errors.ts";
import type { FakeAccountModel, GaadEntry } from "../fake-model.ts";
import { type FakeState, randomId } from "../fake-state.ts";
import type { CloudTrailCall } from "./cloudtrail-event.ts";

export type Details = Required<NonNullable<FakeAccountModel["authorizationDetails"]>>;
export type PrincipalKind = "user" | "role" | "group";
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** GAAD's list, name member, inline list and ID prefix of each kind of principal. */
export const PRINCIPALS = {
  user: { list: "UserDetailList", name: "UserName", inline: "UserPolicyList", id: "AIDA" },
  role: { list: "RoleDetailList", name: "RoleName", inline: "RolePolicyList", id: "AROA" },
  group: { list: "GroupDetailList", name: "GroupName", inline: "GroupPolicyList", id: "AGPA" },
} as const;

/** What every control change gets: the fake's state, the clock, and where its event goes. */
export interface ControlContext {
  readonly state: FakeState;
  now(): Date;
  emit(call: CloudTrailCall): void;
}

/** `User`, `Role`, `Group`: how IAM's operation names spell the kind. */
export const titleOf = (kind: PrincipalKind) => `${kind[0]?.toUpperCase()}${kind.slice(1)}`;

/** IAM's dates as GAAD gives them. */
export const iamDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export function details(state: FakeState): Details {
  const current = state.model.authorizationDetails ?? {};
  return {
    UserDetailList: current.UserDetailList ?? [],
    GroupDetailList: current.GroupDetailList ?? [],
    RoleDetailList: current.RoleDetailList ?? [],
    Policies: current.Policies ?? [],
  };
}

/** Replaces the model by a copy with `changes` (the model given to the fake is never changed). */
export function replaceModel(state: FakeState, changes: Partial<FakeAccountModel>): void {
  state.model = { ...state.model, ...changes };
}

export function replaceDetails(state: FakeState, changes: Partial<Details>): void {
  replaceModel(state, { authorizationDetails: { ...details(state), ...changes } });
}

export function findEntry(state: FakeState, kind: PrincipalKind, name: string): GaadEntry {
  const { list, name: field } = PRINCIPALS[kind];
  const entry = details(state)[list].find((candidate) => candidate[field] === name);
  if (!entry) {
    throw new FakeAwsError("NoSuchEntity", `The ${kind} with name ${name} cannot be found.`, 404);
  }
  return entry;
}

/** Replaces the principal's GAAD entry by `change(entry)`; `NoSuchEntity` when there is none. */
export function updatePrincipal(
  state: FakeState,
  kind: PrincipalKind,
  name: string,
  change: (entry: Mutable<GaadEntry>) => GaadEntry,
): void {
  const { list, name: field } = PRINCIPALS[kind];
  findEntry(state, kind, name);
  const entries = details(state)[list].map((entry) =>
    entry[field] === name ? change({ ...entry }) : entry,
  );
  replaceDetails(state, { [list]: entries });
}

/** A new principal ID, as IAM makes them. */
export const principalId = (kind: PrincipalKind) => randomId(PRINCIPALS[kind].id, 17);

const isAwsManaged = (arn: string) => /^arn:[^:]+:iam::aws:policy\//.test(arn);

/**
 * Adds `delta` to a managed policy's `AttachmentCount` or `PermissionsBoundaryUsageCount`. GAAD
 * lists an AWS managed policy only while something uses it: one no longer used moves to
 * `policiesOutsideGaad`, one used again moves back. `NoSuchEntity` for an unknown policy.
 */
export function countUse(
  state: FakeState,
  arn: string,
  field: "AttachmentCount" | "PermissionsBoundaryUsageCount",
  delta: number,
): void {
  const inGaad = details(state).Policies.find((policy) => policy.Arn === arn);
  const outside = (state.model.policiesOutsideGaad ?? []).find((policy) => policy.Arn === arn);
  const policy = inGaad ?? outside;
  if (!policy) {
    throw new FakeAwsError(
      "NoSuchEntity",
      `Policy ${arn} does not exist or is not attachable.`,
      404,
    );
  }
  const counted = { ...policy, [field]: Number(policy[field] ?? 0) + delta };
  const used =
    Number(counted.AttachmentCount ?? 0) + Number(counted.PermissionsBoundaryUsageCount ?? 0);
  const listed = !isAwsManaged(arn) || used > 0;
  const others = details(state).Policies.filter((entry) => entry.Arn !== arn);
  const outsideOthers = (state.model.policiesOutsideGaad ?? []).filter(
    (entry) => entry.Arn !== arn,
  );
  const kept = inGaad
    ? details(state).Policies.map((entry) => (entry.Arn === arn ? counted : entry))
    : [...others, counted];
  replaceDetails(state, { Policies: listed ? kept : others });
  replaceModel(state, {
    policiesOutsideGaad: listed ? outsideOthers : [...outsideOthers, counted],
  });
}

/** The managed policies a GAAD entry uses: attached, and its boundary. */
export function usesOf(entry: GaadEntry): { attached: string[]; boundary?: string } {
  const attached = ((entry.AttachedManagedPolicies ?? []) as { PolicyArn: string }[]).map(
    (policy) => policy.PolicyArn,
  );
  const boundary = (entry.PermissionsBoundary as { PermissionsBoundaryArn?: string } | undefined)
    ?.PermissionsBoundaryArn;
  return { attached, ...(boundary ? { boundary } : {}) };
}
