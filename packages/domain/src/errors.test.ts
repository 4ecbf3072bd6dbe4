import { describe, expect, it } from "vitest";
import { toValidationIssues } from "./errors.ts";
import { PartnerConfig } from "./partner.ts";

describe("toValidationIssues", () => {
  it("names each unknown key at its own path", () => {
    const result = PartnerConfig.safeParse({ partnerId: "P123456", configs: { a: 1 }, b: 2 });
    expect(result.success).toBe(false);
    const issues = toValidationIssues(result.error?.issues ?? []);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "configs.a", message: "is not a recognised field" },
        { path: "b", message: "is not a recognised field" },
      ]),
    );
  });

  it("prefixes paths and names the root", () => {
    expect(toValidationIssues([{ path: ["x", 0], message: "m" }], "body")).toEqual([
      { path: "body.x.0", message: "m" },
    ]);
    expect(toValidationIssues([{ path: [], message: "m" }])).toEqual([
      { path: "(root)", message: "m" },
    ]);
  });
});
