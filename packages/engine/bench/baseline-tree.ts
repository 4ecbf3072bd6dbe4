// An earlier commit's engine and capability map, copied out of the local repository into a
// temporary directory (git archive: no network, no worktree to clean up), with the engine's
// installed dependencies linked from this checkout and `@sightline/capabilities` linked to the
// copied capabilities, so that `tsx --conditions=@sightline/source` runs it from its sources
// like the current tree.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface BaselineTree {
  /** The commit's full hash and its subject line. */
  commit: string;
  subject: string;
  /** The directory holding `engine/` and `capabilities/` (as `packages/` does here). */
  packages: string;
  /** Dependencies the commit's engine declares that this checkout has not installed. */
  missing: string[];
  remove(): void;
}

/** What the copy needs: both packages and the compiler options their tsconfig extends. */
const PATHS = ["tsconfig.base.json", "packages/engine", "packages/capabilities"];

export function materializeBaseline(ref: string, currentPackages: string): BaselineTree {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: currentPackages, encoding: "utf8", maxBuffer: 1 << 28 });
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`).trim();
  const top = git("rev-parse", "--show-toplevel").trim();
  const subject = git("log", "-1", "--format=%s", commit).trim();
  const root = mkdtempSync(path.join(tmpdir(), `sightline-engine-${commit.slice(0, 7)}-`));
  const archive = execFileSync("git", ["archive", "--format=tar", commit, ...PATHS], {
    cwd: top,
    maxBuffer: 1 << 30,
  });
  execFileSync("tar", ["-x", "-C", root], { input: archive });
  const packages = path.join(root, "packages");
  if (!existsSync(path.join(packages, "engine", "src", "index.ts"))) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`${ref} (${commit.slice(0, 7)}) has no packages/engine/src/index.ts`);
  }
  const missing: string[] = [];
  for (const name of ["engine", "capabilities"]) {
    missing.push(...linkDependencies(path.join(packages, name), path.join(currentPackages, name)));
  }
  return {
    commit,
    subject,
    packages,
    missing,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Links each runtime dependency of the copied package to this checkout's installed copy;
 * workspace packages to their copied sibling. Returns the dependencies found nowhere.
 */
function linkDependencies(copied: string, current: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(copied, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const modules = path.join(copied, "node_modules");
  const missing: string[] = [];
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const link = path.join(modules, name);
    mkdirSync(path.dirname(link), { recursive: true });
    if (name.startsWith("@sightline/")) {
      const sibling = path.join(copied, "..", name.slice("@sightline/".length));
      if (!existsSync(sibling)) missing.push(name);
      else symlinkSync(sibling, link, "dir");
      continue;
    }
    const installed = path.join(current, "node_modules", name);
    if (!existsSync(installed)) missing.push(name);
    else symlinkSync(realpathSync(installed), link, "dir");
  }
  return missing;
}
