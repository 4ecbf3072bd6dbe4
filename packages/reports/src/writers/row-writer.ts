import type { AnyReportRow, ReportColumn } from "../columns/column.ts";
import type { WrittenFile } from "./hashing-file.ts";

/** Writes one report to one local file in one format, a row at a time. */
export interface RowWriter {
  /** Returns a promise only when the file cannot take more yet: await it before the next row. */
  write(row: AnyReportRow): Promise<void> | undefined;
  /** Writes what is buffered and closes the file. */
  finish(): Promise<WrittenFile>;
  /** Closes the file and removes it. */
  abort(): Promise<void>;
}

export interface RowWriterOptions {
  /** Parquet only: rows per row group, the rows the writer holds in memory at once. */
  rowGroupSize?: number;
}

export type OpenRowWriter = (
  path: string,
  columns: readonly ReportColumn[],
  options?: RowWriterOptions,
) => RowWriter;
