import { once } from "node:events";
import { createWriteStream } from "node:fs";

export type Format = "json" | "csv";

function csvCell(value: unknown): string {
  const text = Array.isArray(value)
    ? value.join(";")
    : value === undefined || value === null
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Streams rows to a file as a JSON array or CSV (header from `columns`), so that a large
 * account's summaries never sit in memory at once. Returns the number of rows written.
 */
export async function writeRows(
  file: string,
  format: Format,
  columns: readonly string[],
  rows: Iterable<Record<string, unknown>>,
): Promise<number> {
  const out = createWriteStream(file, { encoding: "utf8" });
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  let count = 0;
  await write(format === "json" ? "[" : `${columns.join(",")}\n`);
  for (const row of rows) {
    if (format === "json") {
      await write(`${count === 0 ? "\n" : ",\n"}${JSON.stringify(row)}`);
    } else {
      await write(`${columns.map((c) => csvCell(row[c])).join(",")}\n`);
    }
    count++;
  }
  if (format === "json") await write(count === 0 ? "]\n" : "\n]\n");
  out.end();
  await once(out, "finish");
  return count;
}
