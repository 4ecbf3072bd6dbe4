/** Escapes text for an XML element or attribute. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * Renders `value` as the content of an element. An array under a name renders as `<name>`
 * wrapping one `<item>` per entry when `listItem` is given (`member` for AWS Query, `item`
 * for EC2), or as repeated `<name>` elements when it is null (S3's flattened lists).
 */
export function renderXml(name: string, value: unknown, listItem: string | null): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) {
    if (listItem === null) return value.map((entry) => renderXml(name, entry, listItem)).join("");
    const items = value.map((entry) => renderXml(listItem, entry, listItem)).join("");
    return `<${name}>${items}</${name}>`;
  }
  return `<${name}>${renderContent(value, listItem)}</${name}>`;
}

function renderContent(value: unknown, listItem: string | null): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([key, member]) => renderXml(key, member, listItem))
      .join("");
  }
  return escapeXml(String(value));
}

/** The text of every `<name>…</name>` in a small request body, in order. */
export function readXmlElements(xml: string, name: string): string[] {
  const pattern = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, "g");
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? "");
}
