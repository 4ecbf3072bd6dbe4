import { allSimplePaths } from "graphology-simple-path";
import { type OrgName, pickTargets, setUp } from "./paths-targets.ts";

/**
 * The baseline: graphology-simple-path's `allSimplePaths` on the same graph (the
 * graphology view), asked the same question: every simple path of at most `limit`
 * edges into each target, from every node that reaches it within `limit` steps (found
 * by a backwards search, counted in the baseline's time). A single call cannot be
 * interrupted, so progress is printed after each one and the parent stops the process
 * at its cap: `progress <paths> <ms>` lines, the last one counts.
 */
export function runBaseline(org: OrgName, limit: number, capMs: number): void {
  const setup = setUp(org);
  const targets = pickTargets(setup);
  const graph = setup.graph.graph;
  process.stdout.write("ready\n");
  let paths = 0;
  const t0 = performance.now();
  for (const target of targets) {
    for (const source of reaching(graph, target, limit)) {
      paths += allSimplePaths(graph, source, target, { maxDepth: limit }).length;
      const ms = performance.now() - t0;
      process.stdout.write(`progress ${paths} ${ms.toFixed(1)}\n`);
      if (ms > capMs) return;
    }
  }
  process.stdout.write(`done ${paths} ${(performance.now() - t0).toFixed(1)}\n`);
}

function reaching(
  graph: ReturnType<typeof setUp>["graph"]["graph"],
  target: string,
  limit: number,
) {
  const seen = new Set([target]);
  let frontier = [target];
  for (let depth = 0; depth < limit && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const node of frontier)
      for (const u of graph.inNeighbors(node))
        if (!seen.has(u)) {
          seen.add(u);
          next.push(u);
        }
    frontier = next;
  }
  seen.delete(target);
  return seen;
}
