/**
 * Pretty-prints JSON down to `depth` levels, then writes each deeper value on one line, so a
 * catalogue has one action (or one operation) per line and reads well in a diff.
 */
export function formatJson(value: unknown, depth: number, indent = ""): string {
  if (depth <= 0 || value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => inner + formatJson(v, depth - 1, inner));
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const items = entries.map(
    ([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, depth - 1, inner)}`,
  );
  return `{\n${items.join(",\n")}\n${indent}}`;
}
