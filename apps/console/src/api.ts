import type {
  AuditEventPage,
  ChangeList,
  CustomerAccountRecord,
  DirectCustomerView,
  EventSourceStatus,
  ExecutionRecord,
  FindingList,
  MonitoredAccountRecord,
  PartnerConfig,
  PartnerCustomerList,
  PrincipalAccess,
  PrincipalList,
  ResourceAccessPathsResponse,
  ResourceList,
  WhoAmI,
  WhoCan,
} from "@sightline/domain";

/**
 * The console's only way out of the page: the Sightline API of the origin that served it, with
 * the key the user entered. The key lives in this module's memory for the tab's life: no cookie
 * (so no CSRF), no storage a later visitor could read.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let apiKey: string | undefined;

export const signIn = (key: string) => {
  apiKey = key;
};
export const signOut = () => {
  apiKey = undefined;
};

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  if (!apiKey) throw new ApiError(401, "Enter an API key first");
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: "omit",
    cache: "no-store",
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const message = (json as { message?: unknown } | undefined)?.message;
    throw new ApiError(res.status, typeof message === "string" ? message : `HTTP ${res.status}`);
  }
  return json as T;
}

const q = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
};
const seg = encodeURIComponent;

/** An account as the console addresses it: under a partner customer, or a direct customer's. */
export type AccountRef =
  | { kind: "partner"; partnerId: string; partnerCustomerId: string; accountId: string }
  | { kind: "customer"; customerId: string; accountId: string };

export const accountBase = (a: AccountRef) =>
  a.kind === "partner"
    ? `/partner/${seg(a.partnerId)}/customer/${seg(a.partnerCustomerId)}/account/${seg(a.accountId)}`
    : `/customer/${seg(a.customerId)}/account/${seg(a.accountId)}`;

export type Tenant =
  | { kind: "partner"; partnerId: string }
  | { kind: "customer"; customerId: string };

export const api = {
  whoami: () => call<WhoAmI>("GET", "/whoami"),
  auditEvents: (t: Tenant, cursor?: string) =>
    call<AuditEventPage>(
      "GET",
      `${t.kind === "partner" ? `/partner/${seg(t.partnerId)}` : `/customer/${seg(t.customerId)}`}/audit-events${q({ cursor, limit: 100 })}`,
    ),
  partner: (partnerId: string) => call<PartnerConfig>("GET", `/partner/${seg(partnerId)}`),
  partnerCustomers: (partnerId: string) =>
    call<PartnerCustomerList>("GET", `/partner/${seg(partnerId)}/customer`),
  partnerAccounts: (partnerId: string, partnerCustomerId: string) =>
    call<MonitoredAccountRecord[]>(
      "GET",
      `/partner/${seg(partnerId)}/customer/${seg(partnerCustomerId)}/account`,
    ),
  customer: (customerId: string) => call<DirectCustomerView>("GET", `/customer/${seg(customerId)}`),
  customerAccounts: (customerId: string) =>
    call<CustomerAccountRecord[]>("GET", `/customer/${seg(customerId)}/account`),
  executions: (a: AccountRef, limit?: number) =>
    call<ExecutionRecord[]>("GET", `${accountBase(a)}/executions${q({ limit })}`),
  eventSource: (a: AccountRef) => call<EventSourceStatus>("GET", `${accountBase(a)}/event-source`),
  principals: (a: AccountRef, p: { q?: string; iamAdmin?: string; cursor?: string }) =>
    call<PrincipalList>("GET", `${accountBase(a)}/principals${q({ ...p, limit: 500 })}`),
  principalAccess: (a: AccountRef, principalArn: string) =>
    call<PrincipalAccess>("GET", `${accountBase(a)}/principal-access${q({ principalArn })}`),
  resources: (a: AccountRef, p: { q?: string; cursor?: string }) =>
    call<ResourceList>("GET", `${accountBase(a)}/resources${q({ ...p, limit: 50 })}`),
  whoCan: (a: AccountRef, resourceArn: string, capability?: string) =>
    call<WhoCan>("GET", `${accountBase(a)}/who-can${q({ resourceArn, capability })}`),
  changes: (a: AccountRef, cursor?: string) =>
    call<ChangeList>("GET", `${accountBase(a)}/changes${q({ cursor, limit: 1000 })}`),
  /**
   * Page after page up to `max` changes: one act (an admin made) is often more than a page,
   * and the console groups its changes together.
   */
  changesUpTo: async (a: AccountRef, max: number): Promise<ChangeList> => {
    const changes: ChangeList["changes"] = [];
    let cursor: string | undefined;
    do {
      const page = await api.changes(a, cursor);
      changes.push(...page.changes);
      cursor = page.nextCursor;
    } while (cursor && changes.length < max);
    return { changes, ...(cursor ? { nextCursor: cursor } : {}) };
  },
  findings: (a: AccountRef, cursor?: string) =>
    call<FindingList>("GET", `${accountBase(a)}/findings${q({ cursor, limit: 100 })}`),
  accessPaths: (
    a: AccountRef & { kind: "partner" },
    body: {
      resourceIds: string[];
      principalAccessCapabilities: string[];
      service: string;
      accessCapabilityOperator: "OR" | "AND";
      maxAccessPathNodes?: number;
    },
  ) => call<ResourceAccessPathsResponse>("POST", `${accountBase(a)}/resource-access-paths`, body),
};
