/**
 * What may be logged about an unexpected error: the root cause's name, SQLSTATE or AWS error
 * code, message and stack frames. Wrappers such as drizzle's query error put the SQL and its
 * parameters (key hashes, external IDs) into their message, so a wrapper's message and the
 * message lines of any stack are never logged.
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const root = rootCause(error);
  const code = (root as { code?: unknown }).code;
  const frames = (root.stack ?? "")
    .split("\n")
    .filter((line) => line.startsWith("    at "))
    .slice(0, 8)
    .map((line) => line.trim());
  return {
    type: root.name,
    ...(typeof code === "string" ? { code } : {}),
    message: isQueryWrapper(root) ? "query failed" : firstLine(root.message),
    ...(frames.length > 0 ? { stack: frames } : {}),
  };
}

function rootCause(error: Error): Error {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return current;
}

const isQueryWrapper = (error: Error) => error.message.startsWith("Failed query");

/** Driver messages are one line; anything after the first line is context we do not log. */
const firstLine = (message: string) => message.split("\n", 1)[0] ?? "";
