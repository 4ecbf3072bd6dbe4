import {
  type AccessGraph,
  type AccountModel,
  buildAccessGraph,
  createAccountModel,
  streamResourceAccessPaths,
} from "../src/index.ts";
import { generateOrganisation, ORGANISATIONS } from "./generate-organisation.ts";
import { Random } from "./random.ts";

export type OrgName = keyof typeof ORGANISATIONS;
export const LIMITS = [5, 10, 15] as const;
export const TARGETS = 100;

export interface Setup {
  model: AccountModel;
  graph: AccessGraph;
  generateMs: number;
  modelMs: number;
  buildMs: number;
  buildCpuMs: number;
  modelHeapMiB: number;
  /** Heap the built graph holds, after a full GC (needs --expose-gc). */
  graphHeapMiB: number;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMiB = () => process.memoryUsage().heapUsed / 2 ** 20;

/** Generates the organisation and builds the graph, timing each step. */
export function setUp(org: OrgName): Setup {
  gc();
  const h0 = heapMiB();
  const t0 = performance.now();
  const snapshots = generateOrganisation(ORGANISATIONS[org]);
  const t1 = performance.now();
  const model = createAccountModel(snapshots);
  const t2 = performance.now();
  // The generator's JSON is garbage from here on: keep it out of the graph's memory figures.
  snapshots.length = 0;
  gc();
  const h1 = heapMiB();
  const cpu = process.cpuUsage();
  const t3 = performance.now();
  const graph = buildAccessGraph(model);
  const t4 = performance.now();
  const used = process.cpuUsage(cpu);
  gc();
  const h2 = heapMiB();
  return {
    modelHeapMiB: h1 - h0,
    graphHeapMiB: h2 - h1,
    model,
    graph,
    generateMs: t1 - t0,
    modelMs: t2 - t1,
    buildMs: t4 - t3,
    buildCpuMs: (used.user + used.system) / 1000,
  };
}

/**
 * 100 seeded targets among the roles somebody can assume (a role nobody can assume has
 * no entries and says nothing about speed). Both the method and the baseline use them.
 */
export function pickTargets(setup: Setup, count = TARGETS): string[] {
  const roles = [...setup.model.principals.values()].filter((p) => p.kind === "role");
  const rnd = new Random(7);
  const picked = new Set<string>();
  for (let tries = 0; picked.size < count && tries < roles.length * 4; tries++) {
    const arn = rnd.pick(roles).arn;
    if (picked.has(arn)) continue;
    const stream = streamResourceAccessPaths(setup.graph, setup.model, arn, {
      service: "STS",
      capabilities: ["use-resource"],
      maxAccessPathNodes: 1,
    });
    if (!stream.paths.next().done) picked.add(arn);
  }
  return [...picked];
}

/** Entries per second etc. of a sorted sample. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
