import { analyzeAccount, createAccountModel } from "../src/index.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

const size = (process.argv[2] ?? "medium") as "medium";
const model = createAccountModel(generateAccount(SIZES[size]));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let t = performance.now();
let c = cpu();
const a = analyzeAccount(model);
console.log(
  "analyze wall",
  (performance.now() - t).toFixed(0),
  "cpu",
  (cpu() - c).toFixed(0),
  a.stats.policySets,
);
t = performance.now();
c = cpu();
let n = 0;
for (const _ of a.principalAccessSummaries()) n++;
console.log(
  "principal rows",
  n,
  "wall",
  (performance.now() - t).toFixed(0),
  "cpu",
  (cpu() - c).toFixed(0),
);
t = performance.now();
c = cpu();
let m = 0;
for (const _ of a.resourceAccessSummaries()) m++;
console.log(
  "resource rows",
  m,
  "wall",
  (performance.now() - t).toFixed(0),
  "cpu",
  (cpu() - c).toFixed(0),
);
