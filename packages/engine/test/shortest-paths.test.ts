import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  buildAccessGraph,
  createAccountModel,
  shortestPathsTo,
} from "../src/index.ts";
import { roleArn, snapshot, trust } from "./support/iam-snapshots.ts";

const golden = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "paths", "golden-five-accounts.json"), "utf8"),
) as { accounts: AccountSnapshot[] };
const r = (name: string) => roleArn(name[0]?.repeat(12) ?? "", name);

describe("shortest paths to IAM admins", () => {
  const model = createAccountModel(golden.accounts);
  const graph = buildAccessGraph(model);

  it("gives every principal that can become an admin its shortest chain, admins excluded", () => {
    const paths = shortestPathsTo(graph, new Set([r("333-dst-1")]));
    expect(Object.fromEntries(paths)).toEqual({
      [r("111-src-1")]: [r("111-src-1"), r("222-int-1"), r("333-dst-1")],
      [r("111-src-2")]: [r("111-src-2"), r("333-dst-1")],
      [r("111-src-3")]: [r("111-src-3"), r("111-src-2"), r("333-dst-1")],
      [r("111-src-4")]: [r("111-src-4"), r("222-int-1"), r("333-dst-1")],
      [r("222-int-1")]: [r("222-int-1"), r("333-dst-1")],
      [r("333-src-1")]: [r("333-src-1"), r("333-dst-1")],
      [r("333-src-2")]: [r("333-src-2"), r("333-src-1"), r("333-dst-1")],
      [r("333-src-3")]: [r("333-src-3"), r("444-src-1"), "444444444444", r("333-dst-1")],
      [r("444-src-1")]: [r("444-src-1"), "444444444444", r("333-dst-1")],
      [r("555-src-1")]: [
        r("555-src-1"),
        "555555555555",
        r("111-src-4"),
        r("222-int-1"),
        r("333-dst-1"),
      ],
    });
  });

  it("takes the nearest of several admins", () => {
    const paths = shortestPathsTo(graph, new Set([r("333-dst-1"), r("111-src-4")]));
    expect(paths.get(r("555-src-1"))).toEqual([r("555-src-1"), "555555555555", r("111-src-4")]);
    expect(paths.has(r("111-src-4"))).toBe(false);
  });

  it("can leave out conditional edges", () => {
    const A = "111111111111";
    const m = createAccountModel(
      snapshot({
        id: A,
        roles: [
          {
            name: "admin",
            trust: trust(roleArn(A, "a"), { Bool: { "aws:MultiFactorAuthPresent": "true" } }),
          },
          { name: "a", trust: trust(roleArn(A, "nobody")) },
        ],
      }),
    );
    const g = buildAccessGraph(m);
    const admins = new Set([roleArn(A, "admin")]);
    expect(shortestPathsTo(g, admins).get(roleArn(A, "a"))).toEqual([
      roleArn(A, "a"),
      roleArn(A, "admin"),
    ]);
    expect(shortestPathsTo(g, admins, { unconditionalOnly: true }).size).toBe(0);
  });
});
