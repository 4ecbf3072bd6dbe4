/**
 * Shows that the import rules in the Biome configuration hold: for each case it lints a one-line
 * file importing a module from a place in the tree, and expects `lint/style/noRestrictedImports`
 * (and a non-zero exit) where the rules forbid the import, a clean exit where they allow it.
 *
 * The rules: apps → services → aws, azure, reports, db, runtime → domain → engine → capabilities (logging
 * beside them, importable by all); the AWS SDK in packages/aws alone, the Azure SDK in
 * packages/azure alone (the fakes, packages/aws-fake and packages/azure-fake, import neither SDK),
 * the fakes in no src/ but tests', benchmarks' and scripts' alone, Hono in apps/api alone; no file, network or process I/O in the source
 * of engine, domain and capabilities. They live in biome.json and in each package's biome.json.
 *
 * The files are linted in a temporary copy of the configuration (the root biome.json and
 * .gitignore, every package's biome.json), not in the working tree: Turborepo runs this beside
 * the packages' lint and typecheck, which would otherwise read a probe file importing `hono`
 * from packages/engine/src. The copy is removed when done, failed or not.
 *
 *   node scripts/check-import-rules.mjs      (or: pnpm lint:imports)
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

/** [directory, module imported, forbidden?] */
const CASES = [
  // What the rules forbid.
  ["packages/engine/src", "hono", true],
  ["packages/engine/src", "node:fs", true],
  ["packages/engine/src", "@sightline/domain", true],
  ["packages/engine/test", "@sightline/services", true],
  ["packages/domain/src", "node:child_process", true],
  ["packages/domain/src", "@sightline/db", true],
  ["packages/capabilities/src", "@sightline/engine", true],
  ["packages/capabilities/src", "node:https", true],
  ["packages/aws/src", "@sightline/services", true],
  ["packages/azure/src", "@aws-sdk/client-s3", true],
  ["packages/reports/src", "@azure/identity", true],
  ["packages/db/src", "@sightline/api", true],
  ["packages/runtime/src", "@sightline/services", true],
  ["packages/services/src", "@sightline/aws-fake", true],
  ["packages/aws/src", "@sightline/aws-fake", true],
  ["apps/api/src", "@sightline/azure-fake", true],
  ["packages/aws-fake/src", "@sightline/aws", true],
  ["packages/aws-fake/src", "@aws-sdk/client-s3", true],
  ["packages/azure-fake/src", "@azure/identity", true],
  ["packages/azure-fake/src", "@sightline/azure", true],
  ["packages/runtime/src", "@aws-sdk/client-sts", true],
  ["packages/domain/src", "@sightline/runtime", true],
  ["packages/services/src", "@aws-sdk/client-iam", true],
  ["packages/services/src", "@sightline/worker", true],
  ["packages/logging/src", "@sightline/capabilities", true],
  ["apps/cli/src", "hono", true],
  ["apps/cli/src", "@sightline/aws-fake", true],
  ["apps/worker/src", "@sightline/azure-fake", true],
  ["apps/worker/test", "@aws-sdk/client-sts", true],
  ["apps/api/src", "@azure/identity", true],
  ["scripts", "@hono/node-server", true],
  ["apps/console/src", "node:fs", true],
  ["apps/console/src", "@sightline/services", true],
  ["apps/console/src", "@aws-sdk/client-s3", true],
  ["apps/console/src", "@sightline/domain/other-module", true],
  // What they allow.
  ["apps/api/src", "hono", false],
  ["apps/console/src", "preact", false],
  ["apps/console/src", "@sightline/domain", false],
  // Grouping changes by cause, as the email digest does: a module without zod or I/O.
  ["apps/console/src", "@sightline/domain/change-groups", false],
  ["apps/api/src", "@hono/node-server", false],
  ["packages/aws/src", "@aws-sdk/client-s3", false],
  ["packages/azure/src", "@azure/identity", false],
  ["packages/engine/test", "node:fs", false],
  ["packages/engine/src", "node:crypto", false],
  ["packages/engine/src", "@sightline/capabilities", false],
  ["packages/engine/src", "@sightline/logging", false],
  // zod is pure: the engine reads the Azure snapshot through a schema.
  ["packages/engine/src", "zod", false],
  ["packages/domain/src", "@sightline/engine", false],
  ["packages/aws/src", "@sightline/domain", false],
  ["packages/reports/src", "@sightline/engine", false],
  ["packages/services/test", "@sightline/aws-fake", false],
  ["packages/aws/test", "@sightline/aws-fake/small-account", false],
  ["packages/azure/test", "@sightline/azure-fake", false],
  ["apps/cli/src", "@sightline/services", false],
  // The folders of packages/services/src point down: the comparison and the findings over the
  // stored results, never the other way.
  ["packages/services/src/results", "../changes/compare-results.ts", true],
  ["packages/services/src/results", "../findings/findings.ts", true],
  ["packages/services/src/findings", "../changes/analysis-changes.ts", true],
  ["packages/services/src/account-access", "../findings/findings.ts", true],
  ["packages/services/src/changes", "../account-access/account-access.ts", true],
  ["packages/services/src/changes", "../results/result-records.ts", false],
  ["packages/services/src/changes", "../findings/findings.ts", false],
  ["packages/services/src/account-access", "../results/reach-encoding.ts", false],
  ["packages/services/src/results", "./reach-encoding.ts", false],
  ["packages/services/src/results", "@sightline/aws-fake", true],
  ["apps/cli/test", "@sightline/aws-fake", false],
  ["apps/api/src", "@sightline/runtime", false],
  ["packages/runtime/src", "@sightline/logging", false],
];

/** The root configuration and every workspace's own, copied to the same places under `dir`. */
function copyConfiguration(dir) {
  for (const file of ["biome.json", ".gitignore"])
    copyFileSync(path.join(root, file), path.join(dir, file));
  for (const parent of ["packages", "apps"]) {
    for (const name of readdirSync(path.join(root, parent))) {
      for (const file of ["biome.json", "biome.jsonc"]) {
        const from = path.join(root, parent, name, file);
        if (!existsSync(from)) continue;
        mkdirSync(path.join(dir, parent, name), { recursive: true });
        copyFileSync(from, path.join(dir, parent, name, file));
      }
    }
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "sightline-import-rules-"));
const failures = [];
try {
  copyConfiguration(dir);
  CASES.forEach(([where, specifier, forbidden], i) => {
    const file = path.join(where, `import-rule-probe-${process.pid}-${i}.ts`);
    mkdirSync(path.join(dir, where), { recursive: true });
    const source = `import * as probe from "${specifier}";\n\nexport const used = probe;\n`;
    writeFileSync(path.join(dir, file), source);
    const run = spawnSync(process.execPath, [biome, "lint", "--colors=off", file], {
      cwd: dir,
      encoding: "utf8",
    });
    const output = `${run.stdout}${run.stderr}`;
    const restricted = output.includes("lint/style/noRestrictedImports");
    const held = forbidden ? run.status !== 0 && restricted : run.status === 0 && !restricted;
    const verdict = forbidden ? "forbidden" : "allowed  ";
    console.log(
      `${held ? "ok  " : "FAIL"} ${verdict} ${specifier} in ${where}/ (exit ${run.status})`,
    );
    if (!held) failures.push(output);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length > 0) {
  for (const output of failures) console.error(output);
  console.error(`${failures.length} of ${CASES.length} import rule cases did not hold`);
  process.exit(1);
}
console.log(`All ${CASES.length} import rule cases hold`);
