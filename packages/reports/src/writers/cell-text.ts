import type { CellValue } from "../columns/column.ts";

/** A cell as CSV text: booleans `true`/`false`, timestamps ISO-8601 UTC, JSON as text, absent blank. */
export function csvText(value: CellValue | undefined): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === undefined) return "";
  return value instanceof Date ? value.toISOString() : JSON.stringify(value);
}

/** A cell as a JSON value: timestamps as ISO-8601 UTC strings, absent as `null`. */
export function jsonText(value: CellValue | undefined): string {
  if (value === undefined) return "null";
  return JSON.stringify(value);
}

/**
 * `encode`, skipped while a column repeats its previous value: the rows of one principal repeat
 * its name, ARN and tags, and every row repeats the analysis time.
 */
export function encodeRepeats(
  encode: (value: CellValue | undefined) => string,
): (value: CellValue | undefined) => string {
  let last: CellValue | undefined;
  let lastText = encode(undefined);
  return (value) => {
    if (value !== last) {
      lastText = encode(value);
      last = value;
    }
    return lastText;
  };
}
