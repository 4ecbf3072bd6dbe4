import { useEffect, useState } from "preact/hooks";
import type { AccountRef } from "./api.ts";

/**
 * Where the console is, in the URL's fragment (so that the API serves one page, and back and
 * forward work): `#/` lists the tenants; `#/p/<partner>/<customer>/<account>/<view>` and
 * `#/c/<customer>/<account>/<view>` show one account; `#/audit` the tenant's audit trail.
 */

export const VIEWS = ["executions", "principals", "who-can", "paths", "changes", "events"] as const;
export type View = (typeof VIEWS)[number];

export type Route =
  | { page: "tenants" }
  | { page: "audit" }
  | { page: "account"; account: AccountRef; view: View };

const seg = encodeURIComponent;

export function hrefOf(route: Route): string {
  if (route.page === "tenants") return "#/";
  if (route.page === "audit") return "#/audit";
  const a = route.account;
  const where =
    a.kind === "partner"
      ? `p/${seg(a.partnerId)}/${seg(a.partnerCustomerId)}/${seg(a.accountId)}`
      : `c/${seg(a.customerId)}/${seg(a.accountId)}`;
  return `#/${where}/${route.view}`;
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const view = (name: string | undefined): View =>
    (VIEWS as readonly string[]).includes(name ?? "") ? (name as View) : "executions";
  const [kind, ...rest] = parts;
  if (kind === "audit") return { page: "audit" };
  if (kind === "p" && rest.length >= 3) {
    const [partnerId = "", partnerCustomerId = "", accountId = "", name] = rest;
    return {
      page: "account",
      account: { kind: "partner", partnerId, partnerCustomerId, accountId },
      view: view(name),
    };
  }
  if (kind === "c" && rest.length >= 2) {
    const [customerId = "", accountId = "", name] = rest;
    return {
      page: "account",
      account: { kind: "customer", customerId, accountId },
      view: view(name),
    };
  }
  return { page: "tenants" };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
