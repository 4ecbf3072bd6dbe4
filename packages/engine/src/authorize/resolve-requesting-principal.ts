import { parseArn } from "../arn/parse-arn.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

export interface ResolvedPrincipal {
  /** The requesting principal the request's `principal` string names. */
  caller: RequestingPrincipal;
  /** Its IAM user or role in the model, when it has one. */
  record?: PrincipalRecord;
  /** Why the principal cannot exist (a principal of an analysed account the snapshot lacks). */
  problem?: string;
}

/** Turns the request's principal string into a requesting principal, finding its IAM record when the model has it. */
export function resolveRequestingPrincipal(
  model: AccountModel,
  principal: string,
  sessionName: string | undefined,
): ResolvedPrincipal {
  if (principal === "*") return { caller: { kind: "anonymous", arn: "*" } };
  if (principal.startsWith("federated:")) {
    const provider = principal.slice("federated:".length);
    return { caller: { kind: "federated", arn: principal, federatedProvider: provider } };
  }
  if (!principal.startsWith("arn:")) {
    if (/^\d{12}$/.test(principal))
      return resolveRequestingPrincipal(model, `arn:aws:iam::${principal}:root`, sessionName);
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
    return principalOfRecord(record, session);
  }
  const record = model.principals.get(principal);
  if (record) return principalOfRecord(record, sessionName);
  return external(principal, accountId, partition, model);
}

/** The requesting principal for a user or role of the model (a role: any session, unless the name is given). */
export function principalOfRecord(
  record: PrincipalRecord,
  sessionName: string | undefined,
): ResolvedPrincipal {
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
): ResolvedPrincipal {
  const caller: RequestingPrincipal = {
    kind: "external",
    arn,
    accountId,
    partition,
    identityArn: arn,
  };
  if (model.accounts.has(accountId))
    return { caller, problem: `principal ${arn} is not in the snapshot of account ${accountId}` };
  return { caller };
}
