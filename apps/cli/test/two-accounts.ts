import { writeFile } from "node:fs/promises";
import path from "node:path";

// Account A's role `target` trusts account B's role `hop`; `hop` trusts user `alice`, whose
// identity policy allows assuming it, and `hop`'s own policy allows assuming `target`.

export const ACCOUNT_A = "111111111111";
export const ACCOUNT_B = "222222222222";
export const TARGET = `arn:aws:iam::${ACCOUNT_A}:role/target`;
export const HOP = `arn:aws:iam::${ACCOUNT_B}:role/hop`;
export const ALICE = `arn:aws:iam::${ACCOUNT_B}:user/alice`;

const document = (statement: object) =>
  encodeURIComponent(JSON.stringify({ Version: "2012-10-17", Statement: [statement] }));
const allowAssume = (role: string) => ({
  Effect: "Allow",
  Action: "sts:AssumeRole",
  Resource: role,
});
const trust = (principal: string) =>
  document({ Effect: "Allow", Principal: { AWS: principal }, Action: "sts:AssumeRole" });
const role = (arn: string, trusted: string, inline: object[]) => ({
  RoleName: arn.split("/").pop(),
  RoleId: `AROA${arn.split("/").pop()?.toUpperCase()}`,
  Arn: arn,
  Path: "/",
  AssumeRolePolicyDocument: trust(trusted),
  RolePolicyList: inline.map((statement, i) => ({
    PolicyName: `inline-${i}`,
    PolicyDocument: document(statement),
  })),
  AttachedManagedPolicies: [],
});

export const accountA = {
  UserDetailList: [],
  GroupDetailList: [],
  RoleDetailList: [role(TARGET, HOP, [])],
  Policies: [],
};

export const accountB = {
  UserDetailList: [
    {
      UserName: "alice",
      UserId: "AIDAALICE",
      Arn: ALICE,
      Path: "/",
      GroupList: [],
      AttachedManagedPolicies: [],
      UserPolicyList: [{ PolicyName: "assume-hop", PolicyDocument: document(allowAssume(HOP)) }],
    },
  ],
  GroupDetailList: [],
  RoleDetailList: [role(HOP, ALICE, [allowAssume(TARGET)])],
  Policies: [],
};

/** Writes `a.json` and `b.json` into `dir`; returns their paths. */
export async function writeTwoAccounts(dir: string): Promise<{ a: string; b: string }> {
  const files = { a: path.join(dir, "a.json"), b: path.join(dir, "b.json") };
  await writeFile(files.a, JSON.stringify(accountA));
  await writeFile(files.b, JSON.stringify(accountB));
  return files;
}
