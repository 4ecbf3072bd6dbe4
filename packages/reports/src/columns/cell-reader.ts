import type { AnyReportRow, CellValue, ReportColumn } from "./column.ts";

/** Fills `cells` with a row's values in column order (index `i` for `columns[i]`). */
export type CellReader = (row: AnyReportRow, cells: (CellValue | undefined)[]) => void;

/**
 * A reader of rows of `columns`, compiled once per writer: one property read per column, each
 * at its own place in the code. A loop reading `row[column.name]` with the name changing from
 * column to column makes V8 look every name up the slow, generic way: about 20 ns a cell against
 * 2 ns, and the largest account's reports read 145 M cells (3 s). The code holds only the column
 * names, as JSON string literals; the names come from the report column lists, never from input.
 */
export function cellReader(columns: readonly ReportColumn[]): CellReader {
  const body = columns
    .map((column, i) => `cells[${i}] = row[${JSON.stringify(column.name)}];`)
    .join("\n");
  return new Function("row", "cells", body) as CellReader;
}
