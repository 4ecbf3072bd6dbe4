import { describe, expect, it } from "vitest";
import {
  type AccessPath,
  type AccessPathQuery,
  buildAccessGraph,
  createAccountModel,
  findResourceAccessPaths,
  streamResourceAccessPaths,
} from "../src/index.ts";
import {
  type AccountSpec,
  allowAssume,
  doc,
  roleArn,
  snapshot,
  trust,
} from "./support/iam-snapshots.ts";

const A = "111111111111";
const B = "222222222222";
const STS: AccessPathQuery = { service: "STS", capabilities: ["use-resource"] };
const r = (name: string, account = A) => roleArn(account, name);

function setup(...accounts: AccountSpec[]) {
  const model = createAccountModel(accounts.map(snapshot));
  const graph = buildAccessGraph(model);
  const find = (resource: string, query: Partial<AccessPathQuery> = {}) =>
    findResourceAccessPaths(graph, model, resource, { ...STS, ...query });
  return { model, graph, find };
}

const short = (p: AccessPath) =>
  `${p.nodes.map((n) => n.split("/").pop()).join(" ← ")}${p.truncated ? " [truncated]" : ""}${p.cycle ? " [cycle]" : ""}`;

describe("cycles", () => {
  it("a node already on the path ends the path, repeated last", () => {
    const { find } = setup({
      id: A,
      roles: [
        { name: "target", trust: trust(r("a")) },
        { name: "a", trust: trust(r("b")) },
        { name: "b", trust: trust(r("a")) },
      ],
    });
    expect(find(r("target")).accessPaths.map(short)).toEqual(["a", "a ← b", "a ← b ← a [cycle]"]);
  });

  it("a path back to the resource is a cycle ending with the resource", () => {
    const { find } = setup({
      id: A,
      roles: [
        { name: "target", trust: trust([r("x"), r("target")]) },
        { name: "x", trust: trust(r("target")) },
      ],
    });
    expect(find(r("target")).accessPaths.map(short).sort()).toEqual([
      "target [cycle]",
      "x",
      "x ← target [cycle]",
    ]);
  });
});

describe("truncation and the ceiling", () => {
  // chain: target ← c1 ← c2 ← … ← c20
  const roles = Array.from({ length: 21 }, (_, i) => ({
    name: i === 0 ? "target" : `c${i}`,
    trust: trust(i === 20 ? r("nobody") : r(`c${i + 1}`)),
  }));
  const { find, graph, model } = setup({ id: A, roles });

  for (const limit of [1, 5, 10, 15]) {
    it(`at ${limit} nodes the last entry is truncated`, () => {
      const paths = find(r("target"), { maxAccessPathNodes: limit }).accessPaths;
      expect(paths).toHaveLength(limit);
      expect(paths.map((p) => p.nodes.length)).toEqual(
        Array.from({ length: limit }, (_, i) => i + 1),
      );
      expect(paths.map((p) => p.truncated)).toEqual(paths.map((_, i) => i === limit - 1));
    });
  }

  it("a path that ends at a leaf exactly at the limit is not truncated", () => {
    const paths = find(r("c15"), { maxAccessPathNodes: 5 }).accessPaths;
    expect(paths.at(-1)?.nodes.at(-1)).toBe(r("c20"));
    expect(paths.at(-1)?.truncated).toBe(false);
  });

  it("the ceiling cuts the list and says so", () => {
    const cut = find(r("target"), { maxAccessPathNodes: 15, maxEntries: 3 });
    expect(cut.accessPaths).toHaveLength(3);
    expect(cut.complete).toBe(false);
    expect(find(r("target"), { maxAccessPathNodes: 15, maxEntries: 15 }).complete).toBe(true);
  });

  it("streams: entries come before the walk ends", () => {
    const stream = streamResourceAccessPaths(graph, model, r("target"), {
      ...STS,
      maxAccessPathNodes: 15,
    });
    expect(stream.resourceType).toBe("IAMRole");
    const first = stream.paths.next();
    expect(first.done).toBe(false);
    let count = 1;
    let next = stream.paths.next();
    while (!next.done) {
      count++;
      next = stream.paths.next();
    }
    expect(count).toBe(15);
    expect(next.value).toEqual({ complete: true });
  });

  it("rejects queries outside the contract's limits", () => {
    expect(() => find(r("target"), { maxAccessPathNodes: 16 })).toThrow(RangeError);
    expect(() => find(r("target"), { maxAccessPathNodes: 0 })).toThrow(/1 to 15/);
    expect(() => find(r("target"), { service: "EC2" as "STS" })).toThrow(/STS, S3, KMS/);
    expect(() => find(r("target"), { capabilities: [] })).toThrow(RangeError);
  });
});

describe("S3 and KMS targets", () => {
  const BUCKET = "arn:aws:s3:::reports";
  const KEY = `arn:aws:kms:eu-west-1:${A}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
  const { find } = setup(
    {
      id: A,
      roles: [
        {
          name: "reader",
          trust: trust(r("chain", B)),
          statements: [{ Effect: "Allow", Action: "s3:GetObject", Resource: `${BUCKET}/*` }],
        },
        {
          name: "writer",
          trust: trust(r("nobody")),
          statements: [{ Effect: "Allow", Action: "s3:PutObject", Resource: `${BUCKET}/*` }],
        },
        {
          name: "both",
          trust: trust(r("nobody")),
          statements: [
            { Effect: "Allow", Action: ["s3:GetObject", "s3:PutObject"], Resource: `${BUCKET}/*` },
          ],
        },
        {
          name: "crypto",
          trust: trust(B),
          statements: [{ Effect: "Allow", Action: "kms:Decrypt", Resource: KEY }],
        },
      ],
      resourcePolicies: {
        reports: doc({
          Sid: "TLS",
          Effect: "Deny",
          Principal: "*",
          Action: "s3:*",
          Resource: `${BUCKET}/*`,
          Condition: { Bool: { "aws:SecureTransport": "false" } },
        }),
      },
    },
    {
      id: B,
      roles: [
        { name: "chain", trust: trust(r("nobody", B)), statements: [allowAssume()] },
        { name: "other", trust: trust(r("nobody", B)), statements: [allowAssume(r("crypto"))] },
      ],
    },
  );

  it("OR: any capability; chains of roles that can assume the holders follow", () => {
    const result = find(BUCKET, {
      service: "S3",
      capabilities: ["read-data", "write-data"],
      operator: "OR",
    });
    expect(result.resourceType).toBe("S3Bucket");
    expect(result.accessPaths.map(short).sort()).toEqual([
      "both",
      "reader",
      "reader ← chain",
      "writer",
    ]);
    // The TLS deny is undecided without context: every capability holds under conditions.
    expect(result.accessPaths.every((p) => p.conditional)).toBe(true);
  });

  it("AND: all capabilities", () => {
    const result = find(BUCKET, {
      service: "S3",
      capabilities: ["read-data", "write-data"],
      operator: "AND",
    });
    expect(result.accessPaths.map(short)).toEqual(["both"]);
  });

  it("a key without a supplied policy: the default policy delegates to IAM; chains cross accounts", () => {
    const result = find(KEY, {
      service: "KMS",
      capabilities: ["read-data", "use-resource", "write-data"],
    });
    expect(result.resourceType).toBe("KMSKey");
    expect(result.accessPaths.map(short).sort()).toEqual([
      "crypto",
      "crypto ← 222222222222",
      "crypto ← 222222222222 ← chain",
      "crypto ← 222222222222 ← other",
    ]);
  });

  it("a resource of another service than the query's has no paths", () => {
    expect(find(BUCKET, { service: "KMS", capabilities: ["read-data"] }).accessPaths).toEqual([]);
  });
});
