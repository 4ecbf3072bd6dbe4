import { describe, expect, it } from "vitest";
import { generateAccount } from "../bench/generate-account.ts";
import { arnOf, changed, TINY } from "../bench/random-changes.ts";
import { type AccountSnapshot, createAccountModel, gainsAllowAll } from "../src/index.ts";

type Json = Record<string, unknown>;
const before = generateAccount(TINY, 7);
const user = arnOf("user", "user-3");

/** `before` with user-3's inline policies replaced by one of these statements. */
function withInline(...statements: Json[]): AccountSnapshot {
  const after = structuredClone(before);
  const users = (after.authorizationDetails as { UserDetailList: Json[] }).UserDetailList;
  const entry = users.find((u) => u.Arn === user) as Json;
  entry.UserPolicyList = [
    { PolicyName: "made", PolicyDocument: { Version: "2012-10-17", Statement: statements } },
  ];
  return after;
}
const gains = (from: AccountSnapshot, to: AccountSnapshot, who = [user]) =>
  gainsAllowAll(createAccountModel(from), createAccountModel(to), who);
const all = { Effect: "Allow", Action: "*", Resource: "*" };

describe("gainsAllowAll", () => {
  it("is true for a principal given an unconditional Allow of * on *", () => {
    expect(gains(before, withInline(all))).toBe(true);
    expect(gains(before, withInline({ ...all, Action: ["s3:GetObject", "*"] }))).toBe(true);
  });

  it("is false when the statement was there already, or is not one", () => {
    const admin = withInline(all);
    expect(gains(admin, admin)).toBe(false);
    expect(gains(admin, before)).toBe(false);
    expect(gains(before, withInline({ ...all, Effect: "Deny" }))).toBe(false);
    expect(gains(before, withInline({ ...all, Action: "s3:*" }))).toBe(false);
    expect(gains(before, withInline({ ...all, Resource: `arn:aws:s3:::data-1` }))).toBe(false);
    const conditional = { ...all, Condition: { Bool: { "aws:MultiFactorAuthPresent": "true" } } };
    expect(gains(before, withInline(conditional))).toBe(false);
  });

  it("looks only at the principals it is given", () => {
    expect(gains(before, withInline(all), [arnOf("user", "user-4")])).toBe(false);
    expect(gains(before, changed(before, []), [user])).toBe(false);
  });
});
