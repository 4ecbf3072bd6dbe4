import type { AnyReportRow } from "../columns/column.ts";
import { HashingFile, type ReportFiles } from "./hashing-file.ts";
import type { RowWriter } from "./row-writer.ts";

/** Characters gathered before a write to the file stream. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A text format's writer (CSV, JSON Lines): `header` first, then `line(row)` per row, gathered
 * into chunks of about 64 KiB before each write, so that the file stream sees few large writes.
 */
export function openTextRowWriter(
  path: string,
  header: string,
  line: (row: AnyReportRow) => string,
  files?: ReportFiles,
): RowWriter {
  const file = new HashingFile(path, files);
  let pending = header;
  let rows = 0;
  const flush = () => {
    const chunk = pending;
    pending = "";
    return file.write(chunk);
  };
  return {
    write(row) {
      pending += line(row);
      rows++;
      return pending.length >= CHUNK_CHARS ? flush() : undefined;
    },
    async finish() {
      if (pending.length > 0) await flush();
      return file.close(rows);
    },
    abort: () => file.abort(),
  };
}
