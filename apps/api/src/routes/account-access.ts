import { createRoute } from "@hono/zod-openapi";
import {
  CustomerAccountPath,
  MonitoredAccountPath,
  PrincipalAccess,
  PrincipalAccessQuery,
  PrincipalList,
  PrincipalListQuery,
  ResourceList,
  ResourceListQuery,
  WhoCan,
  WhoCanQuery,
} from "@sightline/domain";
import { accountPrincipals, accountResources, principalAccess, whoCan } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";
import { decodeCursor, directAccount, encodeCursor, partnerAccount } from "./changes.ts";

/**
 * The account's access as its newest analysis stored it (extensions of the contract, for the
 * console and agents): its principals, what one principal can do, who can reach a resource.
 * Each exists for a partner's account and a direct customer's, with the same scope rules as the
 * account's executions.
 */

const DEFAULT_LIMIT = 100;
const TAGS = ["Account access"];
const FROM_STORE =
  "Answers from the account's newest successful analysis, as stored for the comparison of changes (no analysis runs in the request); 409 when the account has none yet.";

/** The cursor of the principals' and resources' pages: the ARN to continue after. */
const readArnCursor = (value: unknown) => {
  const v = value as { a?: unknown } | undefined;
  return typeof v?.a === "string" && v.a.length > 0 ? v.a : undefined;
};

const PARTNER = "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}";
const CUSTOMER = "/customer/{customerId}/account/{accountId}";
const partnerWhat = (p: Record<string, string>) =>
  `account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`;
const customerWhat = (p: Record<string, string>) =>
  `account ${p.accountId} of customer ${p.customerId}`;

const PRINCIPALS = {
  summary: "List the principals of an account",
  description: `Extension of the contract. The account's principals with their IAM-admin state and the policies that make them admins, in ARN order; filter by \`iamAdmin\` and by text in the ARN (\`q\`); \`nextCursor\` continues. ${FROM_STORE}`,
};

export const listPartnerPrincipals = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${PARTNER}/principals`,
    operationId: "listPartnerPrincipals",
    ...PRINCIPALS,
    tags: TAGS,
    request: { params: MonitoredAccountPath, query: PrincipalListQuery },
    responses: { 200: ok(PrincipalList, "A page of principals"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the principals of ${partnerWhat(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    return c.json(await principalsPage(deps.db, account, c.req.valid("query")), 200);
  },
});

export const listCustomerPrincipals = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${CUSTOMER}/principals`,
    operationId: "listCustomerPrincipals",
    ...PRINCIPALS,
    tags: TAGS,
    request: { params: CustomerAccountPath, query: PrincipalListQuery },
    responses: { 200: ok(PrincipalList, "A page of principals"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the principals of ${customerWhat(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    return c.json(await principalsPage(deps.db, account, c.req.valid("query")), 200);
  },
});

async function principalsPage(
  db: Parameters<typeof accountPrincipals>[0],
  account: { customerId: string; accountId: string },
  query: { iamAdmin?: string; q?: string; cursor?: string; limit?: number },
): Promise<PrincipalList> {
  const after = decodeCursor(query.cursor, readArnCursor);
  const { next, ...page } = await accountPrincipals(db, account, {
    ...(query.iamAdmin ? { iamAdmin: query.iamAdmin } : {}),
    ...(query.q ? { q: query.q } : {}),
    ...(after ? { after } : {}),
    limit: query.limit ?? DEFAULT_LIMIT,
  });
  return { ...page, ...(next ? { nextCursor: encodeCursor({ a: next }) } : {}) };
}

const PRINCIPAL_ACCESS = {
  summary: "What a principal of an account can do",
  description: `Extension of the contract. One principal's access: per service, capability and resource (\`*\`: every resource of the service), whether conditional, and the policies that grant it. 404 when the newest analysis has no such principal. ${FROM_STORE}`,
};

export const getPartnerPrincipalAccess = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${PARTNER}/principal-access`,
    operationId: "getPartnerPrincipalAccess",
    ...PRINCIPAL_ACCESS,
    tags: TAGS,
    request: { params: MonitoredAccountPath, query: PrincipalAccessQuery },
    responses: {
      200: ok(PrincipalAccess, "The principal's access"),
      ...errorsOf(400, 403, 404, 409),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read a principal's access in ${partnerWhat(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    const { principalArn } = c.req.valid("query");
    return c.json(await principalAccess(deps.db, account, principalArn), 200);
  },
});

export const getCustomerPrincipalAccess = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${CUSTOMER}/principal-access`,
    operationId: "getCustomerPrincipalAccess",
    ...PRINCIPAL_ACCESS,
    tags: TAGS,
    request: { params: CustomerAccountPath, query: PrincipalAccessQuery },
    responses: {
      200: ok(PrincipalAccess, "The principal's access"),
      ...errorsOf(400, 403, 404, 409),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read a principal's access in ${customerWhat(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    const { principalArn } = c.req.valid("query");
    return c.json(await principalAccess(deps.db, account, principalArn), 200);
  },
});

const WHO_CAN = {
  summary: "Who can access a resource of an account",
  description: `Extension of the contract. Who holds each capability on one resource of the account (all capabilities, or \`capability\`), whether from inside the account, conditional, and the policies that grant it. The resources are those the analysis lists (buckets, keys, roles, resources with a resource-based policy); 404 for another. ${FROM_STORE}`,
};

export const partnerWhoCan = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${PARTNER}/who-can`,
    operationId: "partnerWhoCan",
    ...WHO_CAN,
    tags: TAGS,
    request: { params: MonitoredAccountPath, query: WhoCanQuery },
    responses: { 200: ok(WhoCan, "Who can access it"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read who can access a resource of ${partnerWhat(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    return c.json(await whoCan(deps.db, account, c.req.valid("query")), 200);
  },
});

export const customerWhoCan = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${CUSTOMER}/who-can`,
    operationId: "customerWhoCan",
    ...WHO_CAN,
    tags: TAGS,
    request: { params: CustomerAccountPath, query: WhoCanQuery },
    responses: { 200: ok(WhoCan, "Who can access it"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read who can access a resource of ${customerWhat(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    return c.json(await whoCan(deps.db, account, c.req.valid("query")), 200);
  },
});

const RESOURCES = {
  summary: "List the resources of an account",
  description: `Extension of the contract. The resources the account's analysis lists (buckets, keys, roles, resources with a resource-based policy), in ARN order, without who reaches them (ask \`who-can\` for one); filter by text in the ARN (\`q\`); \`nextCursor\` continues. ${FROM_STORE}`,
};

export const listPartnerResources = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${PARTNER}/resources`,
    operationId: "listPartnerResources",
    ...RESOURCES,
    tags: TAGS,
    request: { params: MonitoredAccountPath, query: ResourceListQuery },
    responses: { 200: ok(ResourceList, "A page of resources"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the resources of ${partnerWhat(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const account = await partnerAccount(deps.db, c.req.valid("param"));
    return c.json(await resourcesPage(deps.db, account, c.req.valid("query")), 200);
  },
});

export const listCustomerResources = defineEndpoint({
  route: createRoute({
    method: "get",
    path: `${CUSTOMER}/resources`,
    operationId: "listCustomerResources",
    ...RESOURCES,
    tags: TAGS,
    request: { params: CustomerAccountPath, query: ResourceListQuery },
    responses: { 200: ok(ResourceList, "A page of resources"), ...errorsOf(400, 403, 404, 409) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the resources of ${customerWhat(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const account = await directAccount(deps.db, c.req.valid("param"));
    return c.json(await resourcesPage(deps.db, account, c.req.valid("query")), 200);
  },
});

async function resourcesPage(
  db: Parameters<typeof accountResources>[0],
  account: { customerId: string; accountId: string },
  query: { q?: string; cursor?: string; limit?: number },
): Promise<ResourceList> {
  const after = decodeCursor(query.cursor, readArnCursor);
  const { next, ...page } = await accountResources(db, account, {
    ...(query.q ? { q: query.q } : {}),
    ...(after ? { after } : {}),
    limit: query.limit ?? DEFAULT_LIMIT,
  });
  return { ...page, ...(next ? { nextCursor: encodeCursor({ a: next }) } : {}) };
}
