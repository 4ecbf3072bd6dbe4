import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FakeAccountModel } from "@sightline/aws-fake";
import {
  finishExecution,
  insertExecution,
  insertSnapshot,
  upsertMonitoredAccount,
} from "@sightline/db";
import { createAccountModel } from "@sightline/engine";
import type { BenchEnvironment } from "./bench-environment.ts";

const gzipAsync = promisify(gzip);

/**
 * An SCP event arrives with the token of the organisation's management account, which the same
 * customer must monitor (docs/events.md). The fake serves the member account only: the
 * management account is monitored with a stored snapshot that names the organisation, as if it
 * had been analysed, so that its SCP events reach the member.
 */
export async function monitorManagementAccount(
  env: BenchEnvironment,
  owner: { partnerId: string; partnerCustomerId: string; customerId: string },
  organization: { id: string; managementAccountId: string },
): Promise<void> {
  const accountId = organization.managementAccountId;
  const stored = await upsertMonitoredAccount(env.ctx.db, {
    partnerId: owner.partnerId,
    partnerCustomerId: owner.partnerCustomerId,
    accountId,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: {
      roleArn: `arn:aws:iam::${accountId}:role/SightlineAuditor`,
      externalId: `bench-${accountId}`,
    },
  });
  if (stored.kind !== "stored") throw new Error(`management account not stored: ${stored.kind}`);
  const executionId = `ondemand-${owner.customerId}-${accountId}-2026-01-01_ORG1`;
  const account = { customerId: owner.customerId, accountId };
  const execution = {
    executionId,
    kind: "ondemand" as const,
    ...account,
    partnerId: owner.partnerId,
    partnerCustomerId: owner.partnerCustomerId,
    provider: "aws",
    authMethod: "config" as const,
  };
  await insertExecution(env.ctx.db, { execution }, async () => {});
  await finishExecution(env.ctx.db, executionId, {
    status: "succeeded",
    reportKeys: [],
    warnings: [],
  });
  const details = { UserDetailList: [], GroupDetailList: [], RoleDetailList: [], Policies: [] };
  const collected = {
    snapshot: { authorizationDetails: details, accountId },
    metadata: { accountId, finishedAt: new Date().toISOString() },
    warnings: [],
  };
  await insertSnapshot(env.ctx.db, {
    executionId,
    ...account,
    collectedAt: new Date(),
    data: await gzipAsync(JSON.stringify(collected)),
    organizationId: organization.id,
  });
}

/** The customer-managed policy whose holders (through groups too) come nearest `count`. */
export function policyHeldByNearly(
  model: FakeAccountModel,
  count: number,
): { arn: string; holders: number } {
  const account = createAccountModel({
    accountId: model.accountId,
    authorizationDetails: model.authorizationDetails,
  });
  const holders = new Map<string, number>();
  for (const principal of account.principals.values())
    for (const policy of principal.identityPolicies)
      if (policy.id.includes(":policy/") && !policy.id.includes(":iam::aws:"))
        holders.set(policy.id, (holders.get(policy.id) ?? 0) + 1);
  const [arn, held] = [...holders].sort(
    (a, b) => Math.abs(a[1] - count) - Math.abs(b[1] - count),
  )[0] ?? ["", 0];
  return { arn, holders: held };
}
