import { createRoute } from "@hono/zod-openapi";
import {
  type Database,
  type FindingRow,
  getDirectCustomer,
  getPartnerCustomer,
  listAccessChanges,
  listFindings,
} from "@sightline/db";
import {
  AppError,
  ChangeList,
  ChangeListQuery,
  CustomerAccountPath,
  type Finding,
  FindingList,
  FindingListQuery,
  ListedChange,
  MonitoredAccountPath,
} from "@sightline/domain";
import type { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";
import { customerNotRegistered } from "./direct-customer.ts";
import { partnerCustomerNotConfigured } from "./monitored-accounts.ts";

const DEFAULT_LIMIT = 100;

/** A page position as an opaque token: base64url JSON, checked on the way back in. */
export const encodeCursor = (value: Record<string, string | number>) =>
  Buffer.from(JSON.stringify(value)).toString("base64url");

export function decodeCursor<T>(
  token: string | undefined,
  read: (value: unknown) => T | undefined,
) {
  if (token === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  const cursor = read(value);
  if (cursor === undefined)
    throw new AppError("INVALID_INPUT", "cursor: must be a nextCursor of a previous page");
  return cursor;
}

const readChangeCursor = (value: unknown) => {
  const v = value as { t?: unknown; s?: unknown } | undefined;
  const time = typeof v?.t === "string" ? new Date(v.t) : undefined;
  if (!time || Number.isNaN(time.getTime()) || !Number.isInteger(v?.s)) return undefined;
  return { analysisTime: time, seq: v?.s as number };
};

const readFindingCursor = (value: unknown) => {
  const v = value as { t?: unknown; f?: unknown } | undefined;
  const time = typeof v?.t === "string" ? new Date(v.t) : undefined;
  if (!time || Number.isNaN(time.getTime()) || typeof v?.f !== "string") return undefined;
  return { lastSeen: time, findingId: v.f };
};

async function changesOf(
  db: Database,
  account: { customerId: string; accountId: string },
  query: z.infer<typeof ChangeListQuery>,
): Promise<ChangeList> {
  const after = decodeCursor(query.cursor, readChangeCursor);
  const page = await listAccessChanges(db, {
    ...account,
    ...(query.since ? { since: new Date(query.since) } : {}),
    ...(after ? { after } : {}),
    limit: query.limit ?? DEFAULT_LIMIT,
  });
  return {
    changes: page.changes.map((row) =>
      ListedChange.parse({
        ...row.change,
        ...(row.cause ? { cause: row.cause } : {}),
        executionId: row.executionId,
        analysisTime: row.analysisTime.toISOString(),
      }),
    ),
    ...(page.next
      ? { nextCursor: encodeCursor({ t: page.next.analysisTime.toISOString(), s: page.next.seq }) }
      : {}),
  };
}

function findingOf(row: FindingRow): Finding {
  const { title, description, ...detail } = row.detail as Record<string, unknown>;
  return {
    findingId: row.findingId,
    kind: row.kind,
    status: row.status,
    severity: row.severity as Finding["severity"],
    subject: row.subject,
    title: typeof title === "string" ? title : row.kind,
    description: typeof description === "string" ? description : "",
    firstSeen: row.firstSeen.toISOString(),
    lastSeen: row.lastSeen.toISOString(),
    ...(row.resolvedAt ? { resolvedAt: row.resolvedAt.toISOString() } : {}),
    executionId: row.lastExecutionId,
    detail,
  };
}

async function findingsOf(
  db: Database,
  account: { customerId: string; accountId: string },
  query: z.infer<typeof FindingListQuery>,
): Promise<FindingList> {
  const after = decodeCursor(query.cursor, readFindingCursor);
  const page = await listFindings(db, {
    ...account,
    ...(query.status ? { status: query.status } : {}),
    ...(after ? { after } : {}),
    limit: query.limit ?? DEFAULT_LIMIT,
  });
  return {
    findings: page.findings.map(findingOf),
    ...(page.next
      ? {
          nextCursor: encodeCursor({ t: page.next.lastSeen.toISOString(), f: page.next.findingId }),
        }
      : {}),
  };
}

const CHANGES_DESCRIPTION =
  "Extension of the contract. What each successful analysis of the account found against the previous one (the account's first analysis is its baseline and has none): principals added and removed, IAM admin gained and lost, capabilities gained and lost, access newly reaching the account from outside or reaching a confidential resource, credentials created, activated and deactivated. Each names its `cause` (what made it: an IAM admin's policy, a principal's policy, a resource's policy, the principal itself, an SCP; an event step's changes also the CloudTrail `eventIds` that explain them): changes with equal causes are one act. Oldest first, in each analysis's order; `since` keeps the analyses at or after a time; `nextCursor` continues.";
const FINDINGS_DESCRIPTION =
  "Extension of the contract. The account's findings, the reviews k9 teaches as checks on every analysis (IAM admins, unused principals, credentials not rotated or unused, over-accessible resources, access from outside the account). A finding keeps its ID while it holds, with its first and last seen times; one that no longer holds is `resolved`. Newest seen first; `nextCursor` continues.";

/** Resolves a partner customer's mapped customer ID, or 404. */
export async function partnerAccount(
  db: Database,
  params: { partnerId: string; partnerCustomerId: string; accountId: string },
) {
  const owner = await getPartnerCustomer(db, params);
  if (!owner) throw partnerCustomerNotConfigured(params);
  return { customerId: owner.customerId, accountId: params.accountId };
}

export async function directAccount(
  db: Database,
  params: { customerId: string; accountId: string },
) {
  if (!(await getDirectCustomer(db, params.customerId)))
    throw customerNotRegistered(params.customerId);
  return params;
}

export const listPartnerChanges = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/changes",
    operationId: "listPartnerAccessChanges",
    summary: "List the access changes of a partner account",
    description: CHANGES_DESCRIPTION,
    tags: ["Changes and findings"],
    request: { params: MonitoredAccountPath, query: ChangeListQuery },
    responses: { 200: ok(ChangeList, "A page of changes"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) =>
      `list the changes of account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    return c.json(await changesOf(deps.db, account, c.req.valid("query")), 200);
  },
});

export const listCustomerChanges = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/account/{accountId}/changes",
    operationId: "listCustomerAccessChanges",
    summary: "List the access changes of a direct customer's account",
    description: CHANGES_DESCRIPTION,
    tags: ["Changes and findings"],
    request: { params: CustomerAccountPath, query: ChangeListQuery },
    responses: { 200: ok(ChangeList, "A page of changes"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the changes of account ${p.accountId} of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    return c.json(await changesOf(deps.db, account, c.req.valid("query")), 200);
  },
});

export const listPartnerFindings = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/findings",
    operationId: "listPartnerFindings",
    summary: "List the findings of a partner account",
    description: FINDINGS_DESCRIPTION,
    tags: ["Changes and findings"],
    request: { params: MonitoredAccountPath, query: FindingListQuery },
    responses: { 200: ok(FindingList, "A page of findings"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) =>
      `list the findings of account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    return c.json(await findingsOf(deps.db, account, c.req.valid("query")), 200);
  },
});

export const listCustomerFindings = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/account/{accountId}/findings",
    operationId: "listCustomerFindings",
    summary: "List the findings of a direct customer's account",
    description: FINDINGS_DESCRIPTION,
    tags: ["Changes and findings"],
    request: { params: CustomerAccountPath, query: FindingListQuery },
    responses: { 200: ok(FindingList, "A page of findings"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the findings of account ${p.accountId} of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    return c.json(await findingsOf(deps.db, account, c.req.valid("query")), 200);
  },
});
