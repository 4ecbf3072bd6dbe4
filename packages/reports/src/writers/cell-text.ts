import type { CellValue } from "../columns/column.ts";

/** A cell as CSV text: booleans `true`/`false`, timestamps ISO-8601 UTC, JSON as text, absent blank. */
export function csvText(value: CellValue | undefined): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  if (value === undefined) return "";
  return value instanceof Date ? value.toISOString() : JSON.stringify(value);
}

const two = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD HH:MM:SS+00:00`: k9's times (Python's `str()` of an aware UTC datetime). */
function k9Time(time: Date): string {
  const day = `${time.getUTCFullYear()}-${two(time.getUTCMonth() + 1)}-${two(time.getUTCDate())}`;
  return `${day} ${two(time.getUTCHours())}:${two(time.getUTCMinutes())}:${two(time.getUTCSeconds())}+00:00`;
}

/** `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`: k9's `analysis_time` (Python's `isoformat()`, microseconds). */
function k9AnalysisTime(time: Date): string {
  return `${time.toISOString().slice(0, 23)}000+00:00`;
}

/**
 * A cell as k9 writes it in its CSVs: booleans `True`/`False`, `analysis_time` with
 * microseconds and `+00:00`, other times `YYYY-MM-DD HH:MM:SS+00:00`, blank for never.
 */
export function k9CsvText(column: string): (value: CellValue | undefined) => string {
  const time = column === "analysis_time" ? k9AnalysisTime : k9Time;
  return (value) => {
    if (typeof value === "string") return value;
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "number") return String(value);
    if (value === undefined) return "";
    return value instanceof Date ? time(value) : JSON.stringify(value);
  };
}

/** A cell as a JSON value: timestamps as ISO-8601 UTC strings, absent as `null`. */
export function jsonText(value: CellValue | undefined): string {
  if (value === undefined) return "null";
  return JSON.stringify(value);
}

/** Objects (JSON cells) whose text a column remembers; the memo is cleared when full. */
const OBJECT_MEMO_LIMIT = 4_096;

/**
 * `encode`, skipped while a column repeats its previous value (the rows of one principal repeat
 * its name, ARN and tags, and every row repeats the analysis time) and for an object (a JSON
 * cell) met lately: the rows of a resource share a few lists of granting policies among their
 * principals, in turn.
 */
export function encodeRepeats(
  encode: (value: CellValue | undefined) => string,
): (value: CellValue | undefined) => string {
  let last: CellValue | undefined;
  let lastText = encode(undefined);
  const objects = new Map<object, string>();
  return (value) => {
    if (value === last) return lastText;
    last = value;
    if (typeof value !== "object" || value instanceof Date) {
      lastText = encode(value);
      return lastText;
    }
    let text = objects.get(value);
    if (text === undefined) {
      text = encode(value);
      if (objects.size >= OBJECT_MEMO_LIMIT) objects.clear();
      objects.set(value, text);
    }
    lastText = text;
    return text;
  };
}
