import type { Style } from "exceljs";
import { cellReader } from "../columns/cell-reader.ts";
import type { AnyReportRow, CellValue, ColumnType, ReportColumn } from "../columns/column.ts";

/** What a cell holds in the workbook; `null` leaves the cell out (blank). */
export type SheetCell = string | number | boolean | Date | null;

/** Excel's limit for a cell's text: a longer one makes Excel repair (cut) the file on opening. */
export const EXCEL_MAX_CELL_CHARS = 32_767;

/** Excel shows the stored UTC instant as it is: the workbook says UTC in its README, not per cell. */
export const TIMESTAMP_FORMAT = "yyyy-mm-dd hh:mm:ss";

// One style object per kind, shared by every cell: exceljs caches a style by object identity, and
// computing it for a fresh object per cell took a third of the writing time.
export const CELL_STYLES: Readonly<Record<ColumnType | "header", Partial<Style>>> = {
  header: { font: { bold: true, size: 11, name: "Calibri", family: 2 } },
  string: {},
  boolean: {},
  timestamp: { numFmt: TIMESTAMP_FORMAT },
  integer: {},
  json: {},
};

/** Column widths in characters, so that a sheet opens readable. */
const COLUMN_WIDTHS: Readonly<Record<ColumnType, number>> = {
  string: 28,
  boolean: 12,
  timestamp: 20,
  integer: 12,
  json: 40,
};

export const columnWidth = (column: ReportColumn): number =>
  Math.max(COLUMN_WIDTHS[column.type], Math.min(column.name.length + 2, 40));

/** Text cut to Excel's limit, marked with `…`; CSV, JSON Lines and Parquet keep the whole value. */
export function cellText(text: string): string {
  if (text.length <= EXCEL_MAX_CELL_CHARS) return text;
  let end = EXCEL_MAX_CELL_CHARS - 1;
  // Never split a surrogate pair: half of one is not valid XML text.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A report cell as a typed sheet cell: text stays text (a leading `=` too: a value is never a
 * formula), booleans booleans, timestamps dates, JSON its text; blank strings and absent
 * timestamps leave the cell out, as a blank CSV field.
 */
export function sheetCell(type: ColumnType, value: CellValue | undefined): SheetCell {
  if (value === undefined || value === "") return null;
  if (type === "json") return cellText(JSON.stringify(value));
  return typeof value === "string" ? cellText(value) : (value as boolean | number | Date);
}

/**
 * A row's cells in column order. A column repeating its previous value (a principal's tags on
 * each of its rows) reuses the encoded cell instead of serialising the JSON again.
 */
export function createRowCells(
  columns: readonly ReportColumn[],
): (row: AnyReportRow) => SheetCell[] {
  const last: (CellValue | undefined)[] = columns.map(() => undefined);
  const cells: SheetCell[] = columns.map(() => null);
  const read = cellReader(columns);
  const rowValues: (CellValue | undefined)[] = columns.map(() => undefined);
  return (row) => {
    const values: SheetCell[] = new Array(columns.length);
    read(row, rowValues);
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as ReportColumn;
      const value = rowValues[i];
      if (value !== last[i]) {
        last[i] = value;
        cells[i] = sheetCell(column.type, value);
      }
      values[i] = cells[i] as SheetCell;
    }
    return values;
  };
}
