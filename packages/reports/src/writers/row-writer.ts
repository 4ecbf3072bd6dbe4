import type { AnyReportRow, ReportColumn } from "../columns/column.ts";
import type { JsonTextOf } from "./cell-text.ts";
import type { ReportFiles, WrittenFile } from "./hashing-file.ts";

/** Writes one report to one local file in one format, a row at a time. */
export interface RowWriter {
  /** Returns a promise only when the file cannot take more yet: await it before the next row. */
  write(row: AnyReportRow): Promise<void> | undefined;
  /** Writes what is buffered and closes the file. */
  finish(): Promise<WrittenFile>;
  /** Closes the file and removes it. */
  abort(): Promise<void>;
}

/**
 * How a CSV is written: `k9`, as k9 writes its four AWS reports (its value formats, values kept
 * exact: AWS names and tags allow no formula calls); `sightline`, ISO-8601 times, `true`/`false`,
 * and formula escaping for text that can come from a tenant's directory (Azure display names).
 */
export type CsvDialect = "k9" | "sightline";

export interface RowWriterOptions {
  /** Parquet only: rows per row group, the rows the writer holds in memory at once. */
  rowGroupSize?: number;
  /** CSV only. Default `sightline`. */
  csvDialect?: CsvDialect;
  /** JSON cells' texts, shared by the writers of one pass (`createJsonTexts`); else `JSON.stringify`. */
  jsonTexts?: JsonTextOf;
  /** Where the file is created (default: the local disk). */
  files?: ReportFiles;
}

export type OpenRowWriter = (
  path: string,
  columns: readonly ReportColumn[],
  options?: RowWriterOptions,
) => RowWriter;
