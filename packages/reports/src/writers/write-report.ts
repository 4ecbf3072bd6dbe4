import { mkdir } from "node:fs/promises";
import path from "node:path";
import {
  K9_COLUMN_COUNT,
  REPORT_COLUMNS,
  type ReportRows,
  type ReportType,
} from "../columns/report-columns.ts";
import type { ReportFormat } from "../report-formats.ts";
import { auditSheetName, type WrittenSheet } from "../workbook/audit-sheets.ts";
import type { AuditWorkbook } from "../workbook/audit-workbook.ts";
import { createJsonTexts } from "./cell-text.ts";
import { openCsvWriter } from "./csv-writer.ts";
import type { ReportFiles, WrittenFile } from "./hashing-file.ts";
import { openJsonLinesWriter } from "./jsonl-writer.ts";
import { openParquetWriter } from "./parquet-writer.ts";
import type { CsvDialect, OpenRowWriter, RowWriter } from "./row-writer.ts";

export { fullRowFormats, REPORT_FORMATS, type ReportFormat } from "../report-formats.ts";

const OPENERS: Readonly<Record<ReportFormat, OpenRowWriter>> = {
  csv: openCsvWriter,
  jsonl: openJsonLinesWriter,
  parquet: openParquetWriter,
};

export interface WriteReportOptions {
  formats: readonly ReportFormat[];
  dir: string;
  /** The file name without extension; the report type when omitted. */
  baseName?: string;
  /** Rows per Parquet row group (see `openParquetWriter`). */
  parquetRowGroupSize?: number;
  /**
   * `k9` (AWS): the CSV (and the workbook's sheet) holds exactly k9's columns, in k9's value
   * formats, while the other formats hold every column. Default `sightline`: every column.
   */
  csvDialect?: CsvDialect;
  /** Also writes the report's sheet of this workbook in the same pass, if it has one. */
  workbook?: AuditWorkbook;
  /** Where the files are created (default: the local disk). */
  files?: ReportFiles;
}

export interface WrittenReportFile extends WrittenFile {
  format: ReportFormat;
}

export interface WrittenReport {
  type: ReportType;
  rows: number;
  files: WrittenReportFile[];
  /** The report's sheets in `options.workbook`. */
  sheet?: WrittenSheet;
}

function writeToAll(writers: readonly Pick<RowWriter, "write">[], row: ReportRows[ReportType]) {
  let full: Promise<void>[] | undefined;
  for (const writer of writers) {
    const wait = writer.write(row);
    if (wait) {
      full ??= [];
      full.push(wait);
    }
  }
  return full && Promise.all(full);
}

const isAsync = <T>(rows: Iterable<T> | AsyncIterable<T>): rows is AsyncIterable<T> =>
  Symbol.asyncIterator in rows;

/**
 * Writes one report in every format of `formats` in a single pass over `rows`, which may be a
 * generator that cannot be replayed. Each row is handed to every format's writer; a writer whose
 * file is full holds the loop until the file drains, so nothing accumulates. With `workbook`, the
 * report's sheet is written in the same pass. On an error every partial file is removed (and the
 * workbook, which cannot drop a sheet, with them).
 */
export async function writeReport<T extends ReportType>(
  type: T,
  rows: Iterable<ReportRows[T]> | AsyncIterable<ReportRows[T]>,
  options: WriteReportOptions,
): Promise<WrittenReport> {
  const formats = [...new Set(options.formats)];
  const sheetName = options.workbook && auditSheetName(type);
  if (formats.length === 0 && !sheetName)
    throw new Error("writeReport needs at least one format or a workbook sheet");
  await mkdir(options.dir, { recursive: true });
  const base = path.join(options.dir, options.baseName ?? type);
  const writerOptions = {
    ...(options.parquetRowGroupSize === undefined
      ? {}
      : { rowGroupSize: options.parquetRowGroupSize }),
    ...(options.csvDialect ? { csvDialect: options.csvDialect } : {}),
    ...(options.files ? { files: options.files } : {}),
    jsonTexts: createJsonTexts(),
  };
  const k9Csv = options.csvDialect === "k9";
  if (k9Csv && formats.includes("csv") && K9_COLUMN_COUNT[type] === 0)
    throw new Error(`k9 has no ${type} report: it has no k9 CSV`);
  const columnsOf = (format: ReportFormat) =>
    k9Csv && format === "csv"
      ? REPORT_COLUMNS[type].slice(0, K9_COLUMN_COUNT[type])
      : REPORT_COLUMNS[type];
  // The sheet first: it refuses to open while another report's sheet is, before any file exists.
  const sheet = sheetName ? options.workbook?.sheet(sheetName, columnsOf("csv")) : undefined;
  const outputs = formats.map((format) => ({
    format,
    writer: OPENERS[format](`${base}.${format}`, columnsOf(format), writerOptions),
  }));
  const writers: Pick<RowWriter, "write" | "abort">[] = outputs.map((output) => output.writer);
  if (sheet) writers.push(sheet);
  let count = 0;
  try {
    if (isAsync(rows)) {
      for await (const row of rows) {
        count++;
        await writeToAll(writers, row);
      }
    } else {
      for (const row of rows) {
        count++;
        const full = writeToAll(writers, row);
        if (full) await full;
      }
    }
    const files: WrittenReportFile[] = [];
    for (const { format, writer } of outputs) files.push({ format, ...(await writer.finish()) });
    if (!sheet) return { type, rows: count, files };
    return { type, rows: count, files, sheet: await sheet.finish() };
  } catch (error) {
    await Promise.allSettled(writers.map((writer) => writer.abort()));
    throw error;
  }
}
