/**
 * What may be logged about an unexpected error: its name, SQLSTATE and the driver's own message.
 * Drizzle's wrapper message carries the query parameters (key hashes, external IDs): never logged.
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const cause = (error as { cause?: unknown }).cause;
  const root = cause instanceof Error ? cause : error;
  const code = (root as { code?: unknown }).code;
  const wrapped = root !== error;
  return {
    error: root.name,
    ...(typeof code === "string" ? { code } : {}),
    message: wrapped || !error.message.startsWith("Failed query") ? root.message : "query failed",
    stack: error.stack?.split("\n").slice(1, 6).join("\n"),
  };
}
