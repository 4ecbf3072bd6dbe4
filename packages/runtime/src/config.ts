import { z } from "zod";

/**
 * Settings every Sightline process reads at start-up (the API and the worker add their own).
 * Each variable's `.meta({ description, defaultText, accepts })` is its entry in
 * `docs/configuration.md` (`pnpm docs:configuration` writes the page): `defaultText` when the
 * default is not a literal, `accepts` when the schema's type and bounds say too little.
 */
export const BaseConfig = z.object({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .meta({
      description:
        "`postgres://…` of a Postgres server; unset starts an embedded Postgres that keeps its data in `SIGHTLINE_DATA_DIR`",
    }),
  SIGHTLINE_DATA_DIR: z.string().min(1).default(".data").meta({
    accepts: "a directory path",
    description:
      "the embedded Postgres, the generated keys (`admin-key`, `master-key`), the local inbox (`inbox/`) and scratch space (`work/`)",
  }),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info").meta({
    description:
      "`debug`, `info`, `warn` or `error`; logs are JSON lines (pino) with a `requestId` or `executionId`",
  }),
  SIGHTLINE_DRAIN_SECONDS: z.coerce.number().int().min(0).default(300).meta({
    description:
      "on SIGTERM, how long running analyses may take to finish (a 10,000-principal account takes 2–3 minutes); a job still running then is handed back and runs again at once on another worker, no retry counted (a worker killed outright: once its lease is lost, `SIGHTLINE_LEASE_LOST_AFTER_SECONDS`)",
  }),
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
