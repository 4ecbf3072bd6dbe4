import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { analyzeAccount, createAccountModel } from "@sightline/engine";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";
import { type Format, writeRows } from "./write-rows.ts";

export interface AnalyzeCommand extends SnapshotFiles {
  format: Format;
  out: string;
  progress: (message: string) => void;
}

const COLUMNS = {
  principals: [
    "principalArn",
    "principalName",
    "principalType",
    "accountId",
    "iamAdmin",
    "groupArns",
    "permissionsBoundaryArn",
    "tags",
  ],
  resources: ["resourceArn", "resourceType", "service", "accountId", "allowsAnyPrincipal"],
  "principal-access": [
    "principalArn",
    "principalName",
    "principalType",
    "service",
    "capability",
    "resourceArn",
    "conditional",
    "exceptResources",
  ],
  "resource-access": [
    "resourceArn",
    "resourceType",
    "service",
    "capability",
    "principal",
    "principalType",
    "inAccount",
    "conditional",
  ],
} as const;

/** `sightline analyze`: writes the four reports and the input issues into `out`. */
export async function runAnalyze(command: AnalyzeCommand): Promise<Record<string, number>> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  command.progress(`reading ${command.authorizationDetails.length} authorization details file(s)`);
  const snapshots = await loadSnapshots(command);
  const model = createAccountModel(snapshots);
  command.progress(
    `model built (${model.principals.size} principals) after ${elapsed()}; analysing`,
  );
  const analysis = analyzeAccount(model);
  command.progress(
    `analysed ${analysis.stats.principals} principals in ${analysis.stats.policySets} policy sets after ${elapsed()}`,
  );
  await mkdir(command.out, { recursive: true });
  const file = (name: string) => path.join(command.out, `${name}.${command.format}`);
  const counts: Record<string, number> = {};
  const reports: [keyof typeof COLUMNS, () => Iterable<object>][] = [
    ["principals", () => analysis.principals],
    ["resources", () => analysis.resources],
    ["principal-access", () => analysis.principalAccessSummaries()],
    ["resource-access", () => analysis.resourceAccessSummaries()],
  ];
  for (const [name, rows] of reports) {
    counts[name] = await writeRows(
      file(name),
      command.format,
      COLUMNS[name],
      rows() as Iterable<Record<string, unknown>>,
    );
    command.progress(`${name}: ${counts[name]} rows written after ${elapsed()}`);
  }
  const issues = analysis.issues;
  await writeFile(path.join(command.out, "issues.json"), `${JSON.stringify(issues, null, 2)}\n`);
  counts.issues = issues.length;
  if (issues.length > 0) command.progress(`${issues.length} input issue(s): see issues.json`);
  return counts;
}
