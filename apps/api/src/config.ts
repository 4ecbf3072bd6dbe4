import { z } from "zod";

/** The service's whole configuration, read from the environment once at start-up. */
export const Config = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  /** A Postgres server; when unset, an embedded Postgres keeps its data in SIGHTLINE_DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SIGHTLINE_DATA_DIR: z.string().min(1).default(".data"),
  /** The operator key; generated into `<data dir>/admin-key` on first start when unset. */
  SIGHTLINE_ADMIN_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});
export type Config = z.infer<typeof Config>;

/** Parses the environment or explains every wrong variable (names only, never values). */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = Config.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
