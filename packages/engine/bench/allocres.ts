import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { listAwsActions } from "@sightline/capabilities";
import { analyzeAccount, createAccountModel } from "../src/index.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

const snapshot = generateAccount(SIZES.large);
listAwsActions();
const analysis = analyzeAccount(createAccountModel(snapshot));
let n = 0;
for (const _ of analysis.principalAccessSummaries()) n++;
const s = new Session();
s.connect();
await s.post("HeapProfiler.startSampling", {
  samplingInterval: 65536,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
for (const _ of analysis.resourceAccessSummaries()) n++;
const { profile } = await s.post("HeapProfiler.stopSampling");
writeFileSync(process.argv[2] as string, JSON.stringify(profile));
console.log(n);
