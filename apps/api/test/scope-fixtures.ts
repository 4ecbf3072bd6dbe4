import { randomUUID } from "node:crypto";
import { type Database, rawQuery } from "@sightline/db";
import { PERMISSIONS, type Permission } from "@sightline/domain";
import type { Endpoint } from "../src/endpoint.ts";
import { awsAccount, type createHarness } from "./harness.ts";

type Harness = Awaited<ReturnType<typeof createHarness>>;
export type KeysByScope = Record<Permission, string>;

/**
 * A partner (with a customer and an account) and a direct customer (with an account), each
 * with one key per scope, and the path values and bodies the scope and audit tests call with.
 */
export async function scopeFixture(h: Harness) {
  const partner = await h.newPartner();
  const tenant = await h.newPartnerCustomer(partner);
  const accountId = "123456789012";
  const base = `/partner/${partner.partnerId}/customer/${tenant.partnerCustomerId}`;
  const put = await h.call("PUT", `${base}/account/${accountId}`, {
    key: partner.key,
    body: awsAccount(accountId, partner.partnerId, tenant.partnerCustomerId),
  });
  if (put.status !== 200) throw new Error(`account PUT failed: ${put.text}`);
  const direct = await h.newDirectCustomer();
  const keysOf = async (owner: { partnerId: string } | { customerId: string }) => {
    const keys = {} as KeysByScope;
    for (const scope of PERMISSIONS) {
      const made = await h.admin("POST", "/admin/api-keys", {
        ...owner,
        name: scope,
        scopes: [scope],
      });
      if (made.status !== 201) throw new Error(`key creation failed: ${made.text}`);
      keys[scope] = made.json.key as string;
    }
    return keys;
  };
  const values = {
    partnerId: partner.partnerId,
    partnerCustomerId: tenant.partnerCustomerId,
    accountId,
    customerId: direct.customerId,
    executionId: `ondemand-${tenant.customerId}-${accountId}-2026-01-31_AB12`,
    id: "key_AAAAAAAAAAAAAAAA",
    destinationId: randomUUID(),
  };
  return {
    partner,
    direct,
    values,
    partnerKeys: await keysOf({ partnerId: partner.partnerId }),
    customerKeys: await keysOf({ customerId: direct.customerId }),
    fill: (path: string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => values[name as keyof typeof values]),
  };
}

/** Whose keys a route is called with: the direct customer's for its paths, else the partner's. */
export const ownerOf = (route: Endpoint, values: Record<string, string>) =>
  route.access.kind === "scoped" && "customerId" in route.access.scope(values)
    ? ("customer" as const)
    : ("partner" as const);

/** A valid body for every route that takes one: the handler is reached, not refused by validation. */
export function validBody(operationId: string, v: Record<string, string>): unknown {
  const account = awsAccount(v.accountId ?? "", v.partnerId ?? "", v.partnerCustomerId ?? "");
  switch (operationId) {
    case "putPartner":
      return { partnerId: v.partnerId };
    case "putPartnerCustomer":
      return {
        partnerId: v.partnerId,
        partnerCustomerId: v.partnerCustomerId,
        subscriptionPlanName: "Team",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      };
    case "putMonitoredAccount":
      return account;
    case "putCustomerAccount": {
      const { partnerId: _p, partnerCustomerId: _c, ...rest } = account;
      return { ...rest, customerId: v.customerId };
    }
    case "triggerAnalysis":
      return { customerId: v.customerId, accountId: v.accountId };
    case "triggerPartnerAnalysis":
      return {
        partnerId: v.partnerId,
        partnerCustomerId: v.partnerCustomerId,
        accountId: v.accountId,
      };
    case "generateResourceAccessPaths":
      return {
        resourceIds: [`arn:aws:iam::${v.accountId}:role/target`],
        principalAccessCapabilities: ["use-resource"],
        service: "STS",
        accessCapabilityOperator: "OR",
      };
    case "putPartnerAlertDestinations":
    case "putCustomerAlertDestinations":
      return { destinations: [] };
    case "putDirectCustomerSettings":
    case "putDirectCustomer":
      return { customerId: v.customerId };
    case "createPartnerApiKey":
    case "createCustomerApiKey":
      return { name: "made by a test", scopes: ["read"] };
    case "createApiKey":
      return { partnerId: v.partnerId, name: "made by the operator" };
    case "putOemIntegration":
      return { oemIntegrationEnabled: false };
    default:
      return {};
  }
}

/**
 * The rows of every table that names the partner or the direct customer (a key's last use
 * aside: using a key records it), to compare before and after.
 */
export async function tenantRows(db: Database, partnerId: string, customerId: string) {
  const columns = (await db.execute(
    rawQuery(
      `select table_name, column_name from information_schema.columns
       where table_schema = 'public' and column_name in ('partner_id', 'customer_id')
       order by table_name, column_name`,
      [],
    ),
  )) as unknown as { table_name: string; column_name: string }[];
  const rows: Record<string, unknown[]> = {};
  for (const { table_name: table, column_name: column } of columns) {
    const value = column === "partner_id" ? partnerId : customerId;
    rows[`${table}.${column}`] = [
      ...(await db.execute(
        rawQuery(
          `select to_jsonb(t) - 'last_used_at' as row from "${table}" t where "${column}" = $1 order by (to_jsonb(t) - 'last_used_at')::text`,
          [value],
        ),
      )),
    ];
  }
  return rows;
}
