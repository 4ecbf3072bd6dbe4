// One large-account analysis, timed per phase (no agreement check, no child process), for
// comparing versions by alternating runs:
//   npx tsx --conditions=@sightline/source bench/phases.ts [small|medium|large] [--bytes]
// Prints wall (and CPU) milliseconds of `analyzeAccount`, of one pass over the principal rows
// and of one pass over the resource rows. `--bytes`, after the timed passes: the resource rows'
// size as JSON Lines, and the share of rows on resources without a policy of their own.
import { listAwsActions } from "@sightline/capabilities";
import { analyzeAccount, createAccountModel } from "../src/index.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

const size = (process.argv.slice(2).find((a) => a in SIZES) ?? "large") as keyof typeof SIZES;
const snapshot = generateAccount(SIZES[size]);
listAwsActions();
const model = createAccountModel(snapshot);
// CPU time of all threads (GC included) beside wall time: steadier when other jobs load the machine.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const t0 = performance.now();
const c0 = cpuMs();
const analysis = analyzeAccount(model);
const t1 = performance.now();
const c1 = cpuMs();
let principalRows = 0;
for (const _ of analysis.principalAccessSummaries()) principalRows++;
const t2 = performance.now();
const c2 = cpuMs();
let resourceRows = 0;
for (const _ of analysis.resourceAccessSummaries()) resourceRows++;
const t3 = performance.now();
const c3 = cpuMs();
const ms = (wall: number, cpu: number) => `${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)})`;
console.log(
  `${size}: analyzeAccount ${ms(t1 - t0, c1 - c0)}, principal rows ${ms(t2 - t1, c2 - c1)} (${principalRows}), ` +
    `resource rows ${ms(t3 - t2, c3 - c2)} (${resourceRows}), total ${ms(t3 - t0, c3 - c0)}`,
);
if (process.argv.includes("--bytes")) {
  const all = { rows: 0, bytes: 0 };
  const withoutPolicy = { rows: 0, bytes: 0, resources: new Set<string>() };
  for (const row of analysis.resourceAccessSummaries()) {
    const bytes = Buffer.byteLength(JSON.stringify(row)) + 1;
    all.rows++;
    all.bytes += bytes;
    if (model.resourcePolicies.has(row.resourceArn)) continue;
    withoutPolicy.rows++;
    withoutPolicy.bytes += bytes;
    withoutPolicy.resources.add(row.resourceArn);
  }
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `${size}: resource rows as JSON Lines ${mib(all.bytes)} (${all.rows} rows); on resources without a policy ` +
      `${withoutPolicy.rows} rows on ${withoutPolicy.resources.size} resources, ${mib(withoutPolicy.bytes)}`,
  );
}
