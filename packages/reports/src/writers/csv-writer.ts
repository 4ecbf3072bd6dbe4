import { stringify } from "csv-stringify/sync";
import { cellReader } from "../columns/cell-reader.ts";
import type { CellValue } from "../columns/column.ts";
import { csvText, encodeRepeats, k9CsvText } from "./cell-text.ts";
import type { OpenRowWriter } from "./row-writer.ts";
import { openTextRowWriter } from "./text-row-writer.ts";

/**
 * RFC 4180: CRLF record ends, a field quoted when it holds a quote, comma, CR or LF (csv-stringify
 * quotes a lone CR or LF only when asked: `quoted_match`). `escape_formulas` prefixes `'` to a cell
 * starting with `=`, `+`, `-`, `@`, tab or CR (or their full-width forms), so that a spreadsheet
 * shows a hostile tag value instead of running it.
 */
const CSV_OPTIONS = {
  escape_formulas: true,
  quoted_match: /[\r\n]/,
  record_delimiter: "windows",
} as const;
/** k9's reports keep AWS values exact: IAM names and tags cannot hold a formula call. */
const K9_OPTIONS = { ...CSV_OPTIONS, escape_formulas: false } as const;
const RECORD_END = "\r\n";

type Encoder = (value: CellValue | undefined) => string;

/** Cells csv-stringify would write unchanged: nothing to quote, no formula start. */
const PLAIN = /^(?![=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])[^",\r\n]*$/;
/** The same without formula escaping: nothing to quote. */
const PLAIN_K9 = /^[^",\r\n]*$/;

/** Distinct non-plain cells remembered (tags JSON repeats on every row of a principal). */
const MEMO_LIMIT = 10_000;

/**
 * csv-stringify decides every cell that needs quoting or escaping. Plain cells, most of a
 * report, skip it: calling it for each of them made CSV writing three times slower.
 */
function createCsvCell(k9: boolean) {
  const memo = new Map<string, string>();
  const plain = k9 ? PLAIN_K9 : PLAIN;
  const options = { ...(k9 ? K9_OPTIONS : CSV_OPTIONS), eof: false };
  return (text: string): string => {
    if (plain.test(text)) return text;
    let cell = memo.get(text);
    if (cell === undefined) {
      cell = stringify([[text]], options);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(text, cell);
    }
    return cell;
  };
}

/** CSV (RFC 4180, CRLF line ends) with a header row of the column names, in a dialect. */
export const openCsvWriter: OpenRowWriter = (path, columns, options = {}) => {
  const k9 = options.csvDialect === "k9";
  const cell = createCsvCell(k9);
  const json = options.jsonTexts ?? JSON.stringify;
  const encoders = columns.map((column) => {
    const text = k9 ? k9CsvText(column.name, json) : csvText(json);
    return encodeRepeats((value) => cell(text(value)));
  });
  const header = `${columns.map((column) => cell(column.name)).join(",")}${RECORD_END}`;
  const read = cellReader(columns);
  const cells: (CellValue | undefined)[] = columns.map(() => undefined);
  return openTextRowWriter(
    path,
    header,
    (row) => {
      read(row, cells);
      // No leading comma to slice off: slicing a joined string copies it whole, once per row.
      let line = encoders.length > 0 ? (encoders[0] as Encoder)(cells[0]) : "";
      for (let i = 1; i < encoders.length; i++) line += `,${(encoders[i] as Encoder)(cells[i])}`;
      return `${line}${RECORD_END}`;
    },
    options.files,
  );
};
