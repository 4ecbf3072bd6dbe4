import { encodeRepeats, jsonText } from "./cell-text.ts";
import { HashingFile } from "./hashing-file.ts";
import type { OpenRowWriter } from "./row-writer.ts";

/** Characters gathered before a write to the file stream. */
const CHUNK_CHARS = 64 * 1024;

/** JSON Lines: one object per row, keys in column order, `\n` after every line. */
export const openJsonLinesWriter: OpenRowWriter = (path, columns) => {
  const file = new HashingFile(path);
  const fields = columns.map((column, i) => ({
    name: column.name,
    key: `${i === 0 ? "{" : ","}${JSON.stringify(column.name)}:`,
    encode: encodeRepeats(jsonText),
  }));
  let pending = "";
  let rows = 0;
  const flush = () => {
    const text = pending;
    pending = "";
    return file.write(text);
  };
  return {
    write(row) {
      let line = "";
      for (const field of fields) line += `${field.key}${field.encode(row[field.name])}`;
      pending += `${line}}\n`;
      rows++;
      return pending.length >= CHUNK_CHARS ? flush() : undefined;
    },
    async finish() {
      if (pending.length > 0) await flush();
      return file.close(rows);
    },
    abort: () => file.abort(),
  };
};
