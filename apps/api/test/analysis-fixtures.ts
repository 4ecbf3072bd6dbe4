import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { finishExecution, insertExecution, insertSnapshot, rawQuery } from "@sightline/db";
import { ExecutionList } from "@sightline/domain";
import { expect } from "vitest";
import type { AppDeps } from "../src/context.ts";
import { awsAccount, type createHarness } from "./harness.ts";

/** The contract's execution ID (section 2.1), as a client would check it. */
export const ON_DEMAND_ID =
  /^ondemand-(C\d{5,6}|P\d{6}-\d{12})-(\d{12})-(\d{4}-\d\d-\d\d)_[A-Z0-9]{4}$/;

/** Today's UTC date before and after a call: the execution's date is one of them. */
export async function utcDatesAround<T>(action: () => Promise<T>): Promise<[T, string[]]> {
  const before = new Date().toISOString().slice(0, 10);
  const result = await action();
  return [result, [before, new Date().toISOString().slice(0, 10)]];
}

/** A valid own credential (section 2.5) of `accountId`, an hour long, with fresh secrets. */
export function ownCredential(accountId: string, expiresInMs = 60 * 60_000) {
  return {
    provider: "aws",
    type: "credential_sts",
    details: {
      accessKey: `ASIA${randomBytes(8).toString("hex").toUpperCase()}`,
      secretKey: `secret-${randomBytes(20).toString("base64url")}`,
      sessionToken: `token-${randomBytes(64).toString("base64url")}`,
      expiration: new Date(Date.now() + expiresInMs).toISOString(),
      arn: `arn:aws:sts::${accountId}:assumed-role/SightlineAuditor/partner-session`,
    },
  };
}

/** The pg-boss jobs that carry an execution (its queue's jobs hold identifiers only). */
export async function jobsOf(deps: AppDeps, executionId: string) {
  const rows = await deps.db.execute(
    rawQuery(
      "select id, name, state, data, singleton_key from pgboss.job where data->>'executionId' = $1",
      [executionId],
    ),
  );
  return [...rows] as {
    id: string;
    name: string;
    state: string;
    data: unknown;
    singleton_key: string | null;
  }[];
}

/** Every pg-boss job of an account's analyses (their singleton key is `<customerId>/<accountId>`). */
export async function jobsOfAccount(deps: AppDeps, customerId: string, accountId: string) {
  const rows = await deps.db.execute(
    rawQuery("select id, state, data from pgboss.job where singleton_key = $1", [
      `${customerId}/${accountId}`,
    ]),
  );
  return [...rows] as { id: string; state: string; data: unknown }[];
}

/** Ends an execution as a worker would, so that the account may be analysed again. */
export const finish = (deps: AppDeps, executionId: string) =>
  finishExecution(deps.db, executionId, { status: "succeeded", reportKeys: [], warnings: [] });

type Harness = Awaited<ReturnType<typeof createHarness>>;
type PartnerCustomer = Awaited<ReturnType<Harness["newPartnerCustomer"]>>;
type DirectCustomer = Awaited<ReturnType<Harness["newDirectCustomer"]>>;

export const partnerAccountPath = (pc: PartnerCustomer, accountId: string) =>
  `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${accountId}`;

export const customerAccountPath = (customer: DirectCustomer, accountId: string) =>
  `/customer/${customer.customerId}/account/${accountId}`;

/** Endpoint 14's body for the configured method; `extra` adds or replaces members. */
export const partnerTrigger = (
  pc: PartnerCustomer,
  accountId: string,
  extra: Record<string, unknown> = {},
) => ({ partnerId: pc.partnerId, partnerCustomerId: pc.partnerCustomerId, accountId, ...extra });

/** Monitors an AWS account of a partner customer (endpoint 9). */
export async function monitorPartnerAccount(h: Harness, pc: PartnerCustomer, accountId: string) {
  const put = await h.call("PUT", partnerAccountPath(pc, accountId), {
    key: pc.key,
    body: awsAccount(accountId, pc.partnerId, pc.partnerCustomerId),
  });
  if (put.status !== 200) throw new Error(`monitoring PUT failed: ${put.text}`);
}

/** Monitors an AWS account of a direct customer (the extension of endpoint 9). */
export async function monitorCustomerAccount(
  h: Harness,
  customer: DirectCustomer,
  accountId: string,
) {
  const put = await h.call("PUT", customerAccountPath(customer, accountId), {
    key: customer.key,
    body: directAwsAccount(customer.customerId, accountId),
  });
  if (put.status !== 200) throw new Error(`monitoring PUT failed: ${put.text}`);
}

export const directAwsAccount = (customerId: string, accountId: string) => ({
  customerId,
  accountId,
  provider: "aws",
  auditorAuthMethod: "config",
  auditorAuthConfig: {
    roleArn: `arn:aws:iam::${accountId}:role/SightlineAuditor`,
    externalId: `sightline-ext-${customerId}`,
  },
});

/** The execution IDs of a list answer, in its order. */
export const executionIds = (json: unknown) => ExecutionList.parse(json).map((e) => e.executionId);

/**
 * Monitors each account for the partner customer and stores its IAM details as the newest
 * snapshot of a succeeded execution, as a worker leaves it (no reports, no stored results):
 * what endpoint 12 answers from.
 */
export async function storeCustomerSnapshots(
  h: Harness,
  pc: { partnerId: string; partnerCustomerId: string; customerId: string; key: string },
  accounts: Record<string, unknown>,
): Promise<void> {
  for (const [accountId, authorizationDetails] of Object.entries(accounts)) {
    const put = await h.call(
      "PUT",
      `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${accountId}`,
      { key: pc.key, body: awsAccount(accountId, pc.partnerId, pc.partnerCustomerId) },
    );
    expect(put.status).toBe(200);
    const executionId = `ondemand-${pc.customerId}-${accountId}-2026-01-01_${randomBytes(2).toString("hex").toUpperCase()}`;
    const execution = {
      executionId,
      kind: "ondemand" as const,
      customerId: pc.customerId,
      accountId,
      provider: "aws",
      authMethod: "config" as const,
    };
    await insertExecution(h.deps.db, { execution }, async () => {});
    await finishExecution(h.deps.db, executionId, {
      status: "succeeded",
      reportKeys: [],
      warnings: [],
    });
    const collected = {
      snapshot: { authorizationDetails, accountId, partition: "aws" },
      metadata: {},
      warnings: [],
    };
    await insertSnapshot(h.deps.db, {
      executionId,
      customerId: pc.customerId,
      accountId,
      collectedAt: new Date(),
      data: gzipSync(JSON.stringify(collected)),
    });
  }
}
