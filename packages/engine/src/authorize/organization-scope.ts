import type { Policy } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

export interface OrganizationScope {
  scpLevels?: readonly (readonly Policy[])[];
  rcpLevels?: readonly (readonly Policy[])[];
  callerIsIam: boolean;
  sameAccount: boolean;
  notes: string[];
}

/**
 * Which organization policies apply: SCPs to IAM principals of member accounts (not the
 * management account, not service-linked roles); RCPs to resources of member accounts
 * (not for service-linked roles). A resource of unknown account is taken as the caller's.
 */
export function organizationScope(
  model: AccountModel,
  caller: RequestingPrincipal,
  record: PrincipalRecord | undefined,
  resourceAccountId: string | undefined,
): OrganizationScope {
  const notes: string[] = [];
  if (!resourceAccountId)
    notes.push(
      "resource account not known: the caller's account's RCPs applied; an S3 bucket's answer is conditional on its owner, other resources are taken to be in the caller's account",
    );
  const resourceAccount = resourceAccountId ?? caller.accountId;
  const callerIsIam =
    caller.kind === "user" ||
    caller.kind === "role" ||
    caller.kind === "root" ||
    caller.kind === "external";
  const callerAccount = caller.accountId ? model.accounts.get(caller.accountId) : undefined;
  const resourceAccountData = resourceAccount ? model.accounts.get(resourceAccount) : undefined;
  if (callerAccount?.isManagementAccount)
    notes.push("SCPs do not apply: caller is in the management account");
  if (record?.serviceLinked) notes.push("SCPs and RCPs do not apply: service-linked role");
  if (resourceAccountData?.isManagementAccount)
    notes.push("RCPs do not apply: resource is in the management account");
  const scpApplies =
    caller.kind !== "external" &&
    callerIsIam &&
    !!callerAccount &&
    !callerAccount.isManagementAccount &&
    !record?.serviceLinked;
  const rcpApplies =
    !!resourceAccountData && !resourceAccountData.isManagementAccount && !record?.serviceLinked;
  return {
    ...(scpApplies &&
      callerAccount.serviceControlPolicies.length > 0 && {
        scpLevels: callerAccount.serviceControlPolicies,
      }),
    ...(rcpApplies &&
      resourceAccountData.resourceControlPolicies.length > 0 && {
        rcpLevels: resourceAccountData.resourceControlPolicies,
      }),
    callerIsIam,
    sameAccount: caller.accountId !== undefined && caller.accountId === resourceAccount,
    notes,
  };
}
