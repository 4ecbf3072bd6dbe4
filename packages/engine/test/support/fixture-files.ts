import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

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

/** Asserts that every expected text appears in some issue (as `path: message`). */
export function expectIssuesMention(
  issues: readonly { path: string; message: string }[],
  texts: readonly string[],
): void {
  const messages = issues.map((i) => `${i.path}: ${i.message}`);
  for (const text of texts)
    expect(
      messages.some((m) => m.includes(text)),
      `${text} in ${messages}`,
    ).toBe(true);
}
