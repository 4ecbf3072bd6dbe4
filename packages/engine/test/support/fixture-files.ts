import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One JSON fixture: its file name, the name its tests run under (no `.json`), its content. */
export interface FixtureFile<T> {
  file: string;
  name: string;
  fixture: T;
}

/** The JSON fixtures of `test/fixtures/<folder>`, read once, in directory order. */
export function readFixtures<T>(folder: string): FixtureFile<T>[] {
  const dir = join(import.meta.dirname, "..", "fixtures", folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((file) => ({
      file,
      name: file.replace(/\.json$/, ""),
      fixture: JSON.parse(readFileSync(join(dir, file), "utf8")) as T,
    }));
}
