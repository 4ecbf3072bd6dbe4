import { describe, expect, it } from "vitest";
import { hrefOf, parseRoute, type Route } from "../src/router.ts";

describe("the console's addresses", () => {
  it.each<Route>([
    { page: "tenants" },
    {
      page: "account",
      account: {
        kind: "partner",
        partnerId: "P1",
        partnerCustomerId: "c/1 x",
        accountId: "123456789012",
      },
      view: "paths",
    },
    {
      page: "account",
      account: { kind: "customer", customerId: "C12345", accountId: "123456789012" },
      view: "principals",
    },
  ])("reads back what it writes: %j", (route) => {
    expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it("falls back to the tenants, or to the executions view, on what it does not know", () => {
    expect(parseRoute("#/nowhere")).toEqual({ page: "tenants" });
    expect(parseRoute("")).toEqual({ page: "tenants" });
    const route = parseRoute("#/c/C12345/123456789012/bogus");
    expect(route.page === "account" && route.view).toBe("executions");
  });
});
