import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { WorkerFiles } from "../analysis/analysis-settings.ts";
import { diskFullFailure } from "../analysis/disk-full.ts";
import type { ReportInbox } from "./report-inbox.ts";

type InboxWrites = Pick<WorkerFiles, "copyFile" | "writeFile">;

/** Marks a file being written beside its place; `<name>.partial-<pid>`. */
export const PARTIAL_MARK = ".partial-";

/**
 * The local inbox: objects are files under `root`, at their keys. Each is written beside its
 * place and renamed into it, so a reader never sees half a file. A failed write removes its
 * partial file (a full disk fails `DISK_FULL` naming the folder); a write that succeeds also
 * removes the partial files other attempts at the same key left (a killed worker's), so that a
 * retry leaves nothing behind.
 */
export function createFolderInbox(
  root: string,
  files: InboxWrites = { copyFile, writeFile },
): ReportInbox {
  const target = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(`${path.resolve(root)}${path.sep}`))
      throw new Error(`key '${key}' leaves the inbox folder`);
    return file;
  };
  async function place(key: string, write: (temporary: string) => Promise<void>) {
    const file = target(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}${PARTIAL_MARK}${process.pid}`;
    try {
      await write(temporary);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw (
        diskFullFailure(error, "the delivered reports", `the local inbox folder ${root}`) ?? error
      );
    }
    await removeOtherPartials(file);
    return { key };
  }
  return {
    location: path.resolve(root),
    putFile: (key, source) => place(key, (temporary) => files.copyFile(source, temporary)),
    putBytes: (key, bytes) => place(key, (temporary) => files.writeFile(temporary, bytes)),
    copyObject: (sourceKey, key) =>
      place(key, (temporary) => files.copyFile(target(sourceKey), temporary)),
    deleteObject: (key) => rm(target(key), { force: true }),
    readText: (key) =>
      readFile(target(key), "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      }),
    destroy() {},
  };
}

/** The partial files of `file` that earlier attempts left; its own is renamed already. */
async function removeOtherPartials(file: string): Promise<void> {
  const prefix = `${path.basename(file)}${PARTIAL_MARK}`;
  const names = await readdir(path.dirname(file));
  for (const name of names)
    if (name.startsWith(prefix)) await rm(path.join(path.dirname(file), name), { force: true });
}
