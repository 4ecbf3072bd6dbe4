import { parseArn } from "../arn/parse-arn.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { Caller } from "./caller.ts";

export interface ResolvedCaller {
  caller: Caller;
  record?: PrincipalRecord;
  problem?: string;
}

/** Turns the request's principal string into a caller, finding its IAM record when the model has it. */
export function resolveCaller(
  model: AccountModel,
  principal: string,
  sessionName: string | undefined,
): ResolvedCaller {
  if (principal === "*") return { caller: { kind: "anonymous", arn: "*" } };
  if (principal.startsWith("federated:")) {
    const provider = principal.slice("federated:".length);
    return { caller: { kind: "federated", arn: principal, federatedProvider: provider } };
  }
  if (!principal.startsWith("arn:")) {
    if (/^\d{12}$/.test(principal))
      return resolveCaller(model, `arn:aws:iam::${principal}:root`, sessionName);
    return { caller: { kind: "service", arn: principal, service: principal } };
  }
  const { partition, service, accountId, resource } = parseArn(principal) ?? {
    partition: "aws",
    service: "",
    accountId: "",
    resource: principal.slice("arn:".length),
  };
  if (resource === "root")
    return { caller: { kind: "root", arn: principal, accountId, partition } };
  if (service === "sts" && resource.startsWith("assumed-role/")) {
    const [, roleName, session] = resource.split("/");
    const record = model.accounts.get(accountId)?.roles.find((r) => r.name === roleName);
    if (!record) return external(principal, accountId, partition, model);
    return fromRecord(record, session);
  }
  const record = model.principals.get(principal);
  if (record) return fromRecord(record, sessionName);
  return external(principal, accountId, partition, model);
}

/** The caller for a user or role of the model (a role: any session, unless the name is given). */
export function fromRecord(
  record: PrincipalRecord,
  sessionName: string | undefined,
): ResolvedCaller {
  const base = {
    arn: record.arn,
    accountId: record.accountId,
    partition: record.partition,
    identityArn: record.arn,
    ...(record.permissionsBoundary && { hasBoundary: true }),
  };
  if (record.kind === "user")
    return { caller: { ...base, kind: "user", uniqueId: record.id }, record };
  const sessionArn =
    sessionName === undefined
      ? undefined
      : `arn:${record.partition}:sts::${record.accountId}:assumed-role/${record.name}/${sessionName}`;
  return {
    caller: { ...base, kind: "role", uniqueId: record.id, ...(sessionArn && { sessionArn }) },
    record,
  };
}

function external(
  arn: string,
  accountId: string,
  partition: string,
  model: AccountModel,
): ResolvedCaller {
  const caller: Caller = { kind: "external", arn, accountId, partition, identityArn: arn };
  if (model.accounts.has(accountId))
    return { caller, problem: `principal ${arn} is not in the snapshot of account ${accountId}` };
  return { caller };
}
