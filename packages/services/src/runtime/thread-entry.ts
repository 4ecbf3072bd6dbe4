import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { WorkerOptions } from "node:worker_threads";

/**
 * How to start a worker thread whose module sits beside the caller (`here`, its
 * `import.meta.url`): the built JavaScript, or, when the caller runs from its TypeScript source
 * (tests, `tsx`), the source through tsx's loader registered in the thread (on Node 20 a loader
 * registered with `--import` is not registered in worker threads).
 */
export function threadEntry(
  here: string,
  name: string,
): { entry: string | URL; options: WorkerOptions } {
  if (!here.endsWith(".ts")) return { entry: new URL(`./${name}.js`, here), options: {} };
  const tsxPackage = createRequire(here).resolve("tsx/package.json");
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), "dist/esm/api/index.mjs"));
  const source = new URL(`./${name}.ts`, here);
  return {
    entry: `import(${JSON.stringify(tsxApi.href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); });`,
    options: { eval: true, execArgv: ["--conditions=@sightline/source"] },
  };
}
