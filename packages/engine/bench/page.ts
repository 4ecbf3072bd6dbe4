// Runs every engine benchmark and writes what they printed into BENCHMARKS.md, between its
// markers: `pnpm --filter @sightline/engine bench:page`. Exits non-zero (and writes nothing)
// when a benchmark fails, e.g. on an agreement mismatch.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const page = path.join(here, "..", "BENCHMARKS.md");
const START = "<!-- bench:page start";
const END = "<!-- bench:page end -->";

const BENCHES = [
  ["bench (analysis)", "run.ts"],
  ["bench:paths", "paths.ts"],
  ["bench:patterns", "patterns.ts"],
  ["bench:azure", "azure.ts"],
] as const;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function run(script: string): string {
  const started = performance.now();
  const result = spawnSync(process.execPath, [...process.execArgv, path.join(here, script)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 2 ** 20,
  });
  process.stdout.write(result.stdout);
  if (result.status !== 0)
    throw new Error(
      `${script} exited with ${result.status ?? result.signal}: BENCHMARKS.md left as it was`,
    );
  const output = result.stdout.trim();
  // Markdown tables as they are; the rest as printed, in a text block.
  const body = output.split("\n").every((line) => line.startsWith("|") || line === "")
    ? output
    : `\`\`\`text\n${output}\n\`\`\``;
  return `${body}\n\n(${((performance.now() - started) / 1000).toFixed(0)} s, load at the end ${load()})`;
}

const text = readFileSync(page, "utf8");
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`BENCHMARKS.md has no ${START} … ${END} markers`);
const loadBefore = load();
const sections = BENCHES.map(([name, script]) => `### ${name}\n\n${run(script)}`);
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const generated = [
  `${text.slice(from, text.indexOf("\n", from))}`,
  `## Last run: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `${machine}; load at the start ${loadBefore} (1, 5, 15 minutes: other jobs on the machine count).`,
  "",
  ...sections.flatMap((s) => [s, ""]),
  END,
].join("\n");
writeFileSync(page, `${text.slice(0, from)}${generated}${text.slice(to + END.length)}`);
console.log(`\nwrote ${path.relative(process.cwd(), page)}`);
