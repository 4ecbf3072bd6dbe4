/**
 * The three places where the audit workbook reaches past exceljs's typed API (4.4.0, pinned).
 * Each is checked when used and throws if exceljs changed, and the workbook tests (sheet order,
 * the 200,000-row memory test) pin what they do.
 * @module
 */
import type { stream, Worksheet } from "exceljs";

type WorkbookWriter = stream.xlsx.WorkbookWriter;

/** The stream a sheet's XML waits in until archiver compresses it into the zip. */
export interface EntryBuffer {
  readonly _writableState: { readonly length: number };
  on(event: "drain", listener: () => void): unknown;
}

/**
 * exceljs writes a sheet's rows into a PassThrough that archiver reads when it zips the entry,
 * ignoring its backpressure: without waiting on it, the XML of every row written while
 * compression lags piles up in memory. `_writableState.length` is what it holds.
 */
export function sheetEntryBuffer(worksheet: Worksheet): EntryBuffer {
  const pipes = (worksheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const entry = pipes?.[0] as Partial<EntryBuffer> | undefined;
  if (typeof entry?._writableState?.length !== "number" || typeof entry.on !== "function")
    throw new Error("exceljs changed: a sheet's zip entry stream is not where it was");
  return entry as EntryBuffer;
}

/** The archiver of the workbook: it reports errors, and `abort()` stops it. */
export function workbookZip(workbook: WorkbookWriter): {
  on(event: "error", listener: (error: Error) => void): unknown;
  abort(): unknown;
} {
  const zip = (workbook as unknown as { zip?: { on?: unknown; abort?: unknown } }).zip;
  if (typeof zip?.on !== "function" || typeof zip.abort !== "function")
    throw new Error("exceljs changed: the workbook's zip is not where it was");
  return zip as ReturnType<typeof workbookZip>;
}

/**
 * Makes `worksheet` the first tab. A streamed sheet must be written whole before the next one
 * starts (archiver zips entries in order), so the summary, which counts the other sheets' rows,
 * is written last; the tab order is the order of exceljs's `_worksheets` when it commits.
 */
export function moveSheetToFront(workbook: WorkbookWriter, worksheet: Worksheet): void {
  const sheets = (workbook as unknown as { _worksheets?: unknown[] })._worksheets;
  const index = sheets?.indexOf(worksheet) ?? -1;
  if (!sheets || index < 0)
    throw new Error("exceljs changed: the workbook's sheets are not where they were");
  sheets.splice(index, 1);
  // Index 0 is an empty slot: exceljs numbers sheets from 1 and skips it.
  sheets.splice(sheets[0] === undefined ? 1 : 0, 0, worksheet);
}
