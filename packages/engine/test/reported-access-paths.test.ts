import { describe, expect, it } from "vitest";
import {
  analyzeAccount,
  buildAccessGraph,
  createAccountModel,
  iamAdminPaths,
  reportedAccessPaths,
} from "../src/index.ts";
import { allowAssume, roleArn, snapshot, trust, userArn } from "./support/iam-snapshots.ts";

const A = "111111111111";
const OTHER = "999999999999";
const admin = roleArn(A, "admin");
const ops = roleArn(A, "ops");
const partner = roleArn(A, "partner-access");
const quiet = roleArn(A, "quiet");
const alice = userArn(A, "alice");
const everything = { Effect: "Allow", Action: "*", Resource: "*" };

// alice → ops → admin; another account may assume partner-access; quiet is trusted by nobody.
const model = createAccountModel([
  snapshot({
    id: A,
    users: [{ name: "alice", statements: [allowAssume(ops)] }],
    roles: [
      { name: "admin", trust: trust(ops), statements: [everything] },
      { name: "ops", trust: trust(alice), statements: [allowAssume(admin)] },
      { name: "partner-access", trust: trust(OTHER) },
      { name: "quiet", trust: trust(roleArn(A, "nobody")) },
    ],
  }),
]);
const graph = buildAccessGraph(model);
const { principals } = analyzeAccount(model);

describe("the access paths an analysis reports", () => {
  it("covers the IAM-admin roles and the roles other accounts may assume", () => {
    const entries = [...reportedAccessPaths(graph, model, principals)];
    const byRole = (role: string) =>
      entries.filter((e) => e.roleArn === role).map((e) => e.path.nodes);
    expect(byRole(admin)).toEqual([[ops], [ops, alice]]);
    expect(entries.filter((e) => e.roleArn === admin).every((e) => e.reason === "iam-admin")).toBe(
      true,
    );
    expect(byRole(partner)).toEqual([[OTHER]]);
    expect(entries.find((e) => e.roleArn === partner)?.reason).toBe("trusted-by-other-accounts");
    expect(byRole(quiet)).toEqual([]);
    expect(entries.every((e) => e.complete)).toBe(true);
  });

  it("marks the last entry of a role whose list was cut", () => {
    const entries = [...reportedAccessPaths(graph, model, principals, { maxEntries: 1 })];
    const forAdmin = entries.filter((e) => e.roleArn === admin);
    expect(forAdmin).toHaveLength(1);
    expect(forAdmin[0]?.complete).toBe(false);
  });

  it("names how a principal that is not an admin becomes one", () => {
    const paths = iamAdminPaths(graph, principals);
    expect(paths.get(alice)).toEqual([alice, ops, admin]);
    expect(paths.get(ops)).toEqual([ops, admin]);
    expect(paths.has(admin)).toBe(false);
    expect(paths.has(partner)).toBe(false);
  });
});
