import { describe, expect, it } from "vitest";
import { describeNode, pathGraph } from "../src/graph/path-graph.ts";

const R = "arn:aws:iam::111111111111:role/target";
const hop = "arn:aws:iam::222222222222:role/hop";
const alice = "arn:aws:iam::222222222222:user/alice";

describe("the graph drawn from endpoint 12's paths", () => {
  it("links each path's first node to the resource and each later node to the one before", () => {
    const graph = pathGraph(R, [
      { nodes: [hop, alice], truncated: false, cycle: false },
      { nodes: [hop], truncated: false, cycle: false },
      { nodes: ["333333333333"], truncated: true, cycle: false },
    ]);
    expect(graph.nodes.map((n) => n.id)).toEqual(["333333333333", R, hop, alice].sort());
    expect(graph.edges).toEqual(
      [
        { from: "333333333333", to: R, cycle: false },
        { from: hop, to: R, cycle: false },
        { from: alice, to: hop, cycle: false },
      ].sort((a, b) => (a.from < b.from ? -1 : 1)),
    );
    const account = graph.nodes.find((n) => n.id === "333333333333");
    expect(account).toMatchObject({
      kind: "account",
      account: "333333333333",
      truncatedBeyond: true,
    });
    expect(graph.nodes.find((n) => n.id === R)?.kind).toBe("resource");
  });

  it("marks the edge and the node that close a cycle, a resource assuming itself included", () => {
    const self = pathGraph(R, [{ nodes: [R], truncated: false, cycle: true }]);
    expect(self.nodes).toHaveLength(1);
    expect(self.edges).toEqual([{ from: R, to: R, cycle: true }]);
    expect(self.nodes[0]?.closesCycle).toBe(true);

    const loop = pathGraph(R, [{ nodes: [hop, alice, hop], truncated: false, cycle: true }]);
    expect(loop.edges.filter((e) => e.cycle)).toEqual([{ from: hop, to: alice, cycle: true }]);
    expect(loop.edges).toHaveLength(3);
  });

  it("names nodes by kind, account and short name", () => {
    expect(describeNode(alice, R)).toMatchObject({
      kind: "user",
      account: "222222222222",
      label: "alice",
    });
    expect(describeNode("arn:aws:iam::222222222222:role/a/b/deep", R)).toMatchObject({
      kind: "role",
      label: "deep",
    });
    expect(describeNode("444444444444", R)).toMatchObject({
      kind: "account",
      label: "account 444444444444",
    });
  });
});
