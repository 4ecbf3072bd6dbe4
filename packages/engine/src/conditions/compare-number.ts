/** Numeric and date values: unparsable ones never match, as in AWS. */
export function parseNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Dates are ISO 8601 or epoch seconds. */
export function parseDate(text: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Number(text) * 1000;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

export function compareParsed(
  contextValue: string,
  policyValue: string,
  parse: (text: string) => number | undefined,
  test: (request: number, policy: number) => boolean,
): boolean {
  const a = parse(contextValue);
  const b = parse(policyValue);
  return a !== undefined && b !== undefined && test(a, b);
}
