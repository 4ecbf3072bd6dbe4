import type { CellValue } from "../columns/column.ts";

/** A JSON cell's text (`JSON.stringify`). */
export type JsonTextOf = (value: object) => string;

/** Objects whose text a pass remembers (`createJsonTexts`). */
const RECENT_OBJECTS = 8;

/**
 * `JSON.stringify`, remembering the texts of the last few objects: the writers of one pass are
 * handed the same row one after the other, so the second writer finds the text the first one
 * made (a large account's rows carry 5 M lists of granting policies, mostly distinct objects).
 * Rows are not changed while they are written, so an object's text stays its text.
 */
export function createJsonTexts(): JsonTextOf {
  const objects: (object | undefined)[] = new Array(RECENT_OBJECTS).fill(undefined);
  const texts: string[] = new Array(RECENT_OBJECTS).fill("");
  let next = 0;
  return (value) => {
    for (let i = 0; i < RECENT_OBJECTS; i++) if (objects[i] === value) return texts[i] as string;
    const text = JSON.stringify(value);
    objects[next] = value;
    texts[next] = text;
    next = (next + 1) % RECENT_OBJECTS;
    return text;
  };
}

/** A cell as CSV text: booleans `true`/`false`, timestamps ISO-8601 UTC, JSON as text, absent blank. */
export function csvText(
  json: JsonTextOf = JSON.stringify,
): (value: CellValue | undefined) => string {
  return (value) => {
    if (typeof value === "string") return value;
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") return String(value);
    if (value === undefined) return "";
    return value instanceof Date ? value.toISOString() : json(value);
  };
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
export function k9CsvText(
  column: string,
  json: JsonTextOf = JSON.stringify,
): (value: CellValue | undefined) => string {
  const time = column === "analysis_time" ? k9AnalysisTime : k9Time;
  return (value) => {
    if (typeof value === "string") return value;
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "number") return String(value);
    if (value === undefined) return "";
    return value instanceof Date ? time(value) : json(value);
  };
}

/** A cell as a JSON value: timestamps as ISO-8601 UTC strings, absent as `null`. */
export function jsonText(
  json: JsonTextOf = JSON.stringify,
): (value: CellValue | undefined) => string {
  return (value) => {
    if (value === undefined) return "null";
    return typeof value === "object" && !(value instanceof Date)
      ? json(value)
      : JSON.stringify(value);
  };
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
