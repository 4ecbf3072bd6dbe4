import { cellReader } from "../columns/cell-reader.ts";
import type { CellValue } from "../columns/column.ts";
import { encodeRepeats, jsonText } from "./cell-text.ts";
import type { OpenRowWriter } from "./row-writer.ts";
import { openTextRowWriter } from "./text-row-writer.ts";

/** JSON Lines: one object per row, keys in column order, `\n` after every line. */
export const openJsonLinesWriter: OpenRowWriter = (path, columns, options = {}) => {
  const json = options.jsonTexts ?? JSON.stringify;
  const fields = columns.map((column, i) => ({
    key: `${i === 0 ? "{" : ","}${JSON.stringify(column.name)}:`,
    encode: encodeRepeats(jsonText(json)),
  }));
  const read = cellReader(columns);
  const cells: (CellValue | undefined)[] = columns.map(() => undefined);
  return openTextRowWriter(
    path,
    "",
    (row) => {
      read(row, cells);
      let line = "";
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i] as (typeof fields)[number];
        line += `${field.key}${field.encode(cells[i])}`;
      }
      return `${line}}\n`;
    },
    options.files,
  );
};
