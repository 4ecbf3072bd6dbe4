import { encodeRepeats, jsonText } from "./cell-text.ts";
import type { OpenRowWriter } from "./row-writer.ts";
import { openTextRowWriter } from "./text-row-writer.ts";

/** JSON Lines: one object per row, keys in column order, `\n` after every line. */
export const openJsonLinesWriter: OpenRowWriter = (path, columns, options = {}) => {
  const json = options.jsonTexts ?? JSON.stringify;
  const fields = columns.map((column, i) => ({
    name: column.name,
    key: `${i === 0 ? "{" : ","}${JSON.stringify(column.name)}:`,
    encode: encodeRepeats(jsonText(json)),
  }));
  return openTextRowWriter(path, "", (row) => {
    let line = "";
    for (const field of fields) line += `${field.key}${field.encode(row[field.name])}`;
    return `${line}}\n`;
  });
};
