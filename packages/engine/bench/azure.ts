// Benchmark: pnpm --filter @sightline/engine bench:azure [-- small|large] [--digest]
// `--digest` prints a SHA-256 over the JSON of every row, in order (principals, resources,
// principal summaries, resource summaries), to check that a change leaves the output unchanged.
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { listAzureOperations } from "@sightline/capabilities";
import { analyzeAzureSubscription } from "../src/azure/index.ts";
import { AZURE_SIZES, generateAzureTenant } from "./generate-azure-tenant.ts";

type SizeName = keyof typeof AZURE_SIZES;
const sizes = (process.argv.slice(2).filter((a) => a in AZURE_SIZES) as SizeName[]).concat();
const run = sizes.length > 0 ? sizes : (["large"] as SizeName[]);

for (const size of run) {
  const snapshot = generateAzureTenant(AZURE_SIZES[size]);
  listAzureOperations();
  if (global.gc) global.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const analysis = analyzeAzureSubscription(snapshot);
  const t1 = performance.now();
  let principalRows = 0;
  let conditionalRows = 0;
  for (const row of analysis.principalAccessSummaries()) {
    principalRows++;
    if (row.conditional) conditionalRows++;
  }
  const t2 = performance.now();
  let resourceRows = 0;
  for (const _ of analysis.resourceAccessSummaries()) resourceRows++;
  const t3 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const heapMiB = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  const admins = analysis.principals.filter((p) => p.iamAdmin !== "no").length;
  console.log(
    `azure ${size}: ${snapshot.principals?.length} principals, ${snapshot.groups?.length} groups, ` +
      `${snapshot.roleAssignments.length} role assignments, ${snapshot.roleDefinitions.length} role definitions, ` +
      `${snapshot.denyAssignments?.length ?? 0} deny assignments`,
  );
  console.log(
    `  analysis ${(t3 - t0).toFixed(0)} ms (model + principal rows ${(t1 - t0).toFixed(0)} ms, principal summaries ${(t2 - t1).toFixed(0)} ms, ` +
      `resource summaries ${(t3 - t2).toFixed(0)} ms); CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; load ${loadavg()[0]?.toFixed(2)}`,
  );
  console.log(
    `  ${analysis.principals.length} principals (${admins} IAM admins) in ${analysis.stats.policySets} assignment sets, ` +
      `${analysis.resources.length} resources; ${principalRows} principal rows (${conditionalRows} conditional), ${resourceRows} resource rows; ` +
      `${analysis.stats.policyLayersComputed} evaluations, ${analysis.stats.actionPatternsExpanded} patterns expanded; ${analysis.issues.length} issues`,
  );
  console.log(
    `  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole process, incl. generator), heap growth ${heapMiB.toFixed(0)} MiB`,
  );
  if (process.argv.includes("--digest")) {
    const digest = (rows: Iterable<unknown>) => {
      const hash = createHash("sha256");
      for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
      return hash.digest("hex").slice(0, 16);
    };
    console.log(
      `  digests: principals ${digest(analysis.principals)}, resources ${digest(analysis.resources)}, ` +
        `principal summaries ${digest(analysis.principalAccessSummaries())}, ` +
        `resource summaries ${digest(analysis.resourceAccessSummaries())}`,
    );
  }
}
