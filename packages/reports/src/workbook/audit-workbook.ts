import { Writable } from "node:stream";
import type { stream, Worksheet } from "exceljs";
import type { AnyReportRow, ReportColumn } from "../columns/column.ts";
import { HashingFile, type ReportFiles, type WrittenFile } from "../writers/hashing-file.ts";
import {
  type AuditSummary,
  CAPABILITY_COLUMNS,
  CAPABILITY_SHEET,
  type CapabilityMapInput,
  capabilityRows,
  SUMMARY_HEADER,
  SUMMARY_SHEET,
  summaryRows,
  type WrittenSheet,
} from "./audit-sheets.ts";
import { moveSheetToFront, sheetEntryBuffer, workbookZip } from "./exceljs-internals.ts";
import { CELL_STYLES, columnWidth, createRowCells } from "./sheet-cells.ts";
import { createZipPacer } from "./zip-pacer.ts";

/** Excel's rows per sheet, the header row included. */
export const EXCEL_MAX_ROWS = 1_048_576;

/** Excel's rule for sheet names, less 6 characters for a continuation's ` (999)`. */
const MAX_SHEET_NAME = 31 - 6;
const RESERVED = new Set([SUMMARY_SHEET, CAPABILITY_SHEET]);
const SHEET_NAME = /^[^\\/?*:[\]']([^\\/?*:[\]]*[^\\/?*:[\]'])?$/;

export interface AuditWorkbookOptions {
  analysisTime: Date;
  summary: AuditSummary;
  /** The capability map the analysis used, written as the `capability mapping` sheet. */
  capabilityMap: CapabilityMapInput;
  /** Rows per sheet, header included, before a report continues on `<name> (2)`. Default Excel's. */
  maxRowsPerSheet?: number;
  /** Where the file is created (default: the local disk). */
  files?: ReportFiles;
}

/** One report's sheet (and its continuations), written a row at a time. */
export interface SheetWriter {
  /** Returns a promise only when the zip lags behind: await it before the next row. */
  write(row: AnyReportRow): Promise<void> | undefined;
  /** Closes the sheet; the next one can open. */
  finish(): Promise<WrittenSheet>;
  /** Abandons the whole workbook and removes its file: a zip cannot drop a sheet. */
  abort(): Promise<void>;
}

export interface WrittenWorkbook extends WrittenFile {
  /** The reports' sheets in the order written, then the capability mapping's. */
  sheets: WrittenSheet[];
}

export interface AuditWorkbook {
  /** Opens the sheet of one report; the previous sheet must be finished. */
  sheet(name: string, columns: readonly ReportColumn[]): SheetWriter;
  /** Writes the capability mapping and the summary (first tab), and closes the file. */
  finish(): Promise<WrittenWorkbook>;
  abort(): Promise<void>;
}

/** A stream into `file`, which hashes and counts the zip's bytes on their way to disk. */
function hashingSink(file: HashingFile, onChunk: () => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        onChunk();
        const wait = file.write(chunk);
        if (wait) wait.then(() => callback(), callback);
        else callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

function checkSheetName(name: string): void {
  if (name.length > MAX_SHEET_NAME || !SHEET_NAME.test(name))
    throw new RangeError(
      `sheet name '${name}': 1 to ${MAX_SHEET_NAME} characters, none of \\ / ? * : [ ], not starting or ending with '`,
    );
}

/**
 * The `resource-access-audit` workbook (xlsx), streamed through exceljs's WorkbookWriter: each
 * row is written out as the caller hands it, without shared strings, so memory stays flat
 * whatever the row count. Sheets are written one after another, each report's in one pass.
 */
export async function openAuditWorkbook(
  path: string,
  options: AuditWorkbookOptions,
): Promise<AuditWorkbook> {
  const maxRows = options.maxRowsPerSheet ?? EXCEL_MAX_ROWS;
  if (!Number.isInteger(maxRows) || maxRows < 2 || maxRows > EXCEL_MAX_ROWS)
    throw new RangeError(`maxRowsPerSheet ${maxRows}: 2 to ${EXCEL_MAX_ROWS}`);
  // Imported on use: exceljs takes a fifth of a second to load, which no other report needs.
  const { default: ExcelJS } = await import("exceljs");
  const file = new HashingFile(path, options.files);
  let reject: (error: Error) => void = () => undefined;
  // Settles only on a failure; raced with every wait so that a broken disk cannot hang a write.
  const failed = new Promise<never>((_, r) => {
    reject = r;
  });
  failed.catch(() => undefined);
  const pacer = createZipPacer(failed);
  const sink = hashingSink(file, pacer.check);
  const workbook: stream.xlsx.WorkbookWriter = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useSharedStrings: false,
    useStyles: true,
  });
  const zip = workbookZip(workbook);
  sink.on("error", (error) => reject(error));
  zip.on("error", (error) => reject(error));

  const names = new Set<string>();
  const written: WrittenSheet[] = [];
  let open: string | undefined;
  let closed = false;

  /** A sheet with its header row written, frozen and filterable, as an auditor would set it up. */
  function addWorksheet(name: string, header: readonly string[], widths: number[]): Worksheet {
    if (names.has(name.toLowerCase())) throw new RangeError(`sheet '${name}' already exists`);
    names.add(name.toLowerCase());
    const worksheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] });
    pacer.watch(sheetEntryBuffer(worksheet));
    worksheet.columns = widths.map((width) => ({ width }));
    worksheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: header.length } };
    const row = worksheet.addRow([...header]);
    row.eachCell((cell) => {
      cell.style = CELL_STYLES.header;
    });
    row.commit();
    return worksheet;
  }

  function openSheet(name: string, columns: readonly ReportColumn[]): SheetWriter {
    if (closed) throw new Error("the workbook is finished");
    if (open !== undefined) throw new Error(`sheet '${open}' is not finished`);
    const header = columns.map((c) => c.name);
    const widths = columns.map(columnWidth);
    const styles = columns.map((c) => CELL_STYLES[c.type]);
    const style = (cell: { style: unknown }, col: number) => {
      cell.style = styles[col - 1];
    };
    const cells = createRowCells(columns);
    const sheets = [name];
    let worksheet = addWorksheet(name, header, widths);
    let pending = sheetEntryBuffer(worksheet);
    let sheetRows = 1;
    let rows = 0;
    let done: WrittenSheet | undefined;
    open = name;
    return {
      write(row) {
        if (done) throw new Error(`sheet '${name}' is finished`);
        if (sheetRows === maxRows) {
          worksheet.commit();
          sheets.push(`${name} (${sheets.length + 1})`);
          worksheet = addWorksheet(sheets.at(-1) as string, header, widths);
          pending = sheetEntryBuffer(worksheet);
          sheetRows = 1;
        }
        const added = worksheet.addRow(cells(row));
        added.eachCell(style);
        added.commit();
        sheetRows++;
        rows++;
        return pacer.pace(pending);
      },
      async finish() {
        if (done) return done;
        worksheet.commit();
        open = undefined;
        done = { name, sheets, rows };
        written.push(done);
        return done;
      },
      abort,
    };
  }

  async function writeRows(sheet: SheetWriter, rows: Iterable<AnyReportRow>) {
    for (const row of rows) {
      const wait = sheet.write(row);
      if (wait) await wait;
    }
    return sheet.finish();
  }

  async function abort() {
    closed = true;
    reject(new Error("the workbook was aborted"));
    zip.abort();
    sink.destroy();
    await file.abort();
  }

  return {
    sheet(name, columns) {
      checkSheetName(name);
      if (RESERVED.has(name.toLowerCase()))
        throw new RangeError(`sheet name '${name}' is reserved`);
      return openSheet(name, columns);
    },
    async finish() {
      if (open !== undefined) throw new Error(`sheet '${open}' is not finished`);
      const reportRows = written.reduce((sum, sheet) => sum + sheet.rows, 0);
      const capabilities = openSheet(CAPABILITY_SHEET, CAPABILITY_COLUMNS);
      await writeRows(capabilities, capabilityRows(options.capabilityMap));
      closed = true;
      const summary = addWorksheet(SUMMARY_SHEET, SUMMARY_HEADER, [24, 24, 60]);
      for (const values of summaryRows(options.analysisTime, options.summary, written)) {
        const row = summary.addRow(values);
        row.eachCell((cell) => {
          cell.style = cell.value instanceof Date ? CELL_STYLES.timestamp : CELL_STYLES.string;
        });
        row.commit();
      }
      summary.commit();
      moveSheetToFront(workbook, summary);
      await Promise.race([workbook.commit(), failed]);
      const done = await file.close(reportRows);
      return { ...done, sheets: written };
    },
    abort,
  };
}
