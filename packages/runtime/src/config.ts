import { z } from "zod";

/** Settings every Sightline process reads at start-up (the API and the worker add their own). */
export const BaseConfig = z.object({
  /** A Postgres server; when unset, an embedded Postgres keeps its data in SIGHTLINE_DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SIGHTLINE_DATA_DIR: z.string().min(1).default(".data"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});
export type BaseConfig = z.infer<typeof BaseConfig>;

/**
 * Parses the environment with `schema`, or throws one error naming every wrong variable and its
 * rule (names only: a value may be a secret).
 */
export function parseConfig<T extends z.ZodType>(
  schema: T,
  env: Record<string, string | undefined>,
): z.output<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
