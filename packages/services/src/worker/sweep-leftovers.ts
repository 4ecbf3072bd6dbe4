import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Executor, rawQuery } from "@sightline/db";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import { PARTIAL_MARK } from "../delivery/folder-inbox.ts";

/** A partial inbox file this old belongs to no write still going on. */
const PARTIAL_AGE_MS = 60 * 60 * 1000;

/**
 * Removes what killed attempts left on this machine: the work folders of executions that are
 * no longer running (or of their earlier attempts), and the folder inbox's partial files older
 * than an hour. The next attempt removes its execution's folder itself when it runs here; this
 * catches the rest (an execution that ended elsewhere, or failed for good). A worker sweeps
 * when it starts (after a crash) and with the hourly maintenance.
 */
export async function sweepLeftovers(
  db: Executor,
  settings: Pick<AnalysisSettings, "workDir" | "inboxDir">,
  now = new Date(),
): Promise<{ workFolders: number; partialFiles: number }> {
  let workFolders = 0;
  const folders = await readdir(settings.workDir).catch(() => [] as string[]);
  const rows =
    folders.length === 0
      ? []
      : await db.execute(
          rawQuery(
            `select execution_id as "executionId", attempts from executions
             where execution_id = any(string_to_array($1, ',')) and status in ('queued', 'running')`,
            // Execution IDs hold no comma; a folder that is none matches nothing.
            [folders.join(",")],
          ),
        );
  const active = new Map(rows.map((r) => [String(r.executionId), Number(r.attempts)]));
  for (const folder of folders) {
    const dir = path.join(settings.workDir, folder);
    const attempts = active.get(folder);
    if (attempts === undefined) {
      await rm(dir, { recursive: true, force: true });
      workFolders++;
      continue;
    }
    // A running execution keeps its current attempt's folder only.
    for (const attempt of await readdir(dir).catch(() => [] as string[]))
      if (Number(attempt) < attempts) {
        await rm(path.join(dir, attempt), { recursive: true, force: true });
        workFolders++;
      }
  }
  let partialFiles = 0;
  const entries = await readdir(settings.inboxDir, { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.includes(PARTIAL_MARK)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const modified = await stat(file).then(
      (s) => s.mtimeMs,
      () => now.getTime(),
    );
    if (now.getTime() - modified < PARTIAL_AGE_MS) continue;
    await rm(file, { force: true });
    partialFiles++;
  }
  return { workFolders, partialFiles };
}
