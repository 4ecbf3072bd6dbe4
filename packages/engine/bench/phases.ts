// One large-account analysis, timed per phase (no agreement check, no child process), for
// comparing versions by alternating runs:
//   npx tsx --conditions=@sightline/source bench/phases.ts [small|medium|large]
// Prints wall milliseconds of `analyzeAccount`, of one pass over the principal rows and of one
// pass over the resource rows.
import { listAwsActions } from "@sightline/capabilities";
import { analyzeAccount, createAccountModel } from "../src/index.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

const size = (process.argv[2] ?? "large") as keyof typeof SIZES;
const snapshot = generateAccount(SIZES[size]);
listAwsActions();
const model = createAccountModel(snapshot);
const t0 = performance.now();
const analysis = analyzeAccount(model);
const t1 = performance.now();
let principalRows = 0;
for (const _ of analysis.principalAccessSummaries()) principalRows++;
const t2 = performance.now();
let resourceRows = 0;
for (const _ of analysis.resourceAccessSummaries()) resourceRows++;
const t3 = performance.now();
console.log(
  `${size}: analyzeAccount ${(t1 - t0).toFixed(0)} ms, principal rows ${(t2 - t1).toFixed(0)} ms (${principalRows}), ` +
    `resource rows ${(t3 - t2).toFixed(0)} ms (${resourceRows}), total ${(t3 - t0).toFixed(0)} ms`,
);
