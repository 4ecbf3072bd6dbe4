import { copyFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ReportInbox } from "./report-inbox.ts";

/**
 * The local inbox: objects are files under `root`, at their keys. Each is written beside its
 * place and renamed into it, so a reader never sees half a file.
 */
export function createFolderInbox(root: string): ReportInbox {
  const target = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(`${path.resolve(root)}${path.sep}`))
      throw new Error(`key '${key}' leaves the inbox folder`);
    return file;
  };
  async function place(key: string, write: (temporary: string) => Promise<void>) {
    const file = target(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.partial-${process.pid}`;
    await write(temporary);
    await rename(temporary, file);
    return { key };
  }
  return {
    location: path.resolve(root),
    putFile: (key, source) => place(key, (temporary) => copyFile(source, temporary)),
    putBytes: (key, bytes) => place(key, (temporary) => writeFile(temporary, bytes)),
    copyObject: (sourceKey, key) =>
      place(key, (temporary) => copyFile(target(sourceKey), temporary)),
    deleteObject: (key) => rm(target(key), { force: true }),
    readText: (key) =>
      readFile(target(key), "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      }),
    destroy() {},
  };
}
