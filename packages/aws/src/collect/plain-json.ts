/** Fields of IAM answers that hold a URL-encoded policy document. */
const DOCUMENT_FIELDS = new Set(["PolicyDocument", "AssumeRolePolicyDocument", "Document"]);

/**
 * Turns an SDK answer into plain JSON, as the AWS CLI prints it: dates become ISO 8601 strings,
 * undefined members disappear, and policy documents are URL-decoded and parsed.
 */
export function toPlainJson(value: unknown, field?: string): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") {
    return field !== undefined && DOCUMENT_FIELDS.has(field) ? decodePolicyDocument(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => toPlainJson(item));
  if (typeof value === "object" && value !== null) {
    const plain: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined && key !== "$metadata") plain[key] = toPlainJson(member, key);
    }
    return plain;
  }
  return value;
}

/**
 * IAM sends documents URL-encoded (RFC 3986). A document that does not decode or parse is kept
 * as text: the engine reports it and it grants nothing.
 */
export function decodePolicyDocument(text: string): unknown {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return text;
  }
  return parseJsonDocument(decoded);
}

/** Parses a policy document's JSON text, keeping the text when it is not JSON. */
export function parseJsonDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
