/**
 * Shows that every source file is one a reader can hold: at most 400 lines. Fails naming each
 * file over the limit with its size.
 *
 * Counted: the `.ts`, `.tsx`, `.mts`, `.cts`, `.js`, `.mjs` and `.cjs` files of the packages,
 * the apps and scripts/. Not counted: tests (`*.test.*`, `test/`, `tests/`), fixtures,
 * generated data (`generated/`), benchmarks (`bench/`), declaration files, Drizzle migrations
 * (`drizzle/`). The cloud fakes (`packages/aws-fake`, `packages/azure-fake`) are counted.
 *
 *   node scripts/check-file-sizes.mjs      (or: pnpm lint:file-sizes)
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MAX_LINES = 400;

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** Directories never read: installed, built or local data (as in .gitignore). */
const SKIPPED_DIRECTORIES = new Set([
  "node_modules",
  "dist",
  ".turbo",
  "coverage",
  ".data",
  ".git",
  "inbox",
]);
/** Paths (relative to the root, with `/`) that the limit does not apply to, and why. */
const EXCEPTED = [
  [/\.test\.[cm]?[jt]sx?$/, "a test"],
  [/\.d\.[cm]?ts$/, "a declaration file"],
  [/(^|\/)tests?\//, "a test"],
  [/(^|\/)fixtures?\//, "a fixture"],
  [/(^|\/)generated\//, "generated data"],
  [/(^|\/)bench\//, "a benchmark"],
  [/(^|\/)drizzle\//, "a Drizzle migration"],
];

/** The source files under `dir` (relative to the root), excepted ones left out. */
function* sourceFiles(dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* sourceFiles(relative);
    } else if (
      entry.isFile() &&
      SOURCE.test(entry.name) &&
      !EXCEPTED.some(([pattern]) => pattern.test(relative))
    )
      yield relative;
  }
}

const roots = ["scripts", ...["packages", "apps"].flatMap(subdirectories)];

function subdirectories(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !SKIPPED_DIRECTORIES.has(e.name))
    .map((e) => `${dir}/${e.name}`);
}

const tooLong = [];
let counted = 0;
for (const dir of roots)
  for (const file of sourceFiles(dir)) {
    counted++;
    const text = readFileSync(path.join(root, file), "utf8");
    const lines = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES) tooLong.push({ file, lines });
  }

if (tooLong.length > 0) {
  tooLong.sort((a, b) => b.lines - a.lines || (a.file < b.file ? -1 : 1));
  console.error(
    `${tooLong.length} source file${tooLong.length === 1 ? " is" : "s are"} over ${MAX_LINES} lines (split by responsibility):`,
  );
  for (const { file, lines } of tooLong) console.error(`  ${file}: ${lines} lines`);
  process.exit(1);
}
console.log(`${counted} source files, none over ${MAX_LINES} lines.`);
