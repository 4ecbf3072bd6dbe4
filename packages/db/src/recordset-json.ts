/**
 * Rows as the JSON text of one `json_to_recordset` parameter. A lone UTF-16 surrogate (text that
 * is not well-formed Unicode, such as a display name cut in half) becomes U+FFFD, as it does in a
 * query parameter: `JSON.stringify` writes it as a `\uD800`-style escape, which Postgres refuses
 * when it reads the value as text. An escaped backslash before `u` is left as it is.
 */
export function recordsetJson(rows: readonly object[]): string {
  const json = JSON.stringify(rows);
  // Most batches have no such escape: the search for one is far cheaper than the expression on
  // megabytes of base64 (a tenth of a second of each 10,000-principal event step's CPU).
  if (!json.includes("\\ud") && !json.includes("\\uD")) return json;
  return json.replace(LONE_SURROGATE, "$1\\ufffd");
}

/** `\uD800`–`\uDFFF` escapes after an even number of backslashes (JSON escapes pairs as-is). */
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;
