import { BaseConfig, estimateEntropyBits, OPERATOR_KEY_MIN_BITS } from "@sightline/runtime";
import { PipelineConfig } from "@sightline/services";
import { z } from "zod";

/** The service's configuration, read from the environment once at start-up. */
export const ApiConfig = z
  .intersection(
    BaseConfig.extend({
      /**
       * What this process does: `all` (the default) serves the API and runs a worker; `api` and
       * `worker` split them across processes and machines, which share the database and queue.
       */
      SIGHTLINE_ROLE: z.enum(["all", "api", "worker"]).default("all"),
      HOST: z.string().min(1).default("127.0.0.1"),
      PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
      /** The operator key; generated into `<data dir>/admin-key` on first start when unset. */
      SIGHTLINE_ADMIN_KEY: z
        .string()
        .min(32, "must be at least 32 characters")
        .refine(
          (key) => estimateEntropyBits(key) >= OPERATOR_KEY_MIN_BITS,
          `must be random: at least ${OPERATOR_KEY_MIN_BITS} bits of entropy (e.g. the output of \`openssl rand -base64 32\`); repeated or few distinct characters are refused`,
        )
        .optional(),
      /** Where clients reach the API (behind a proxy: its HTTPS address); the OpenAPI `servers`. */
      SIGHTLINE_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
      /** How long SIGTERM waits for running analyses before stopping anyway. */
      SIGHTLINE_DRAIN_SECONDS: z.coerce.number().int().min(0).default(300),
      /** A client must send a whole request (headers and body) within this time, or is cut off. */
      SIGHTLINE_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
      /** … and its headers within this time. */
      SIGHTLINE_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
      /** A request's query is cancelled after this long (the worker's are not bounded). */
      SIGHTLINE_DB_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
      /** … and after this long waiting for a lock. */
      SIGHTLINE_DB_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
      /** Requests per second one API key may sustain, and its burst; 0 turns the limit off. */
      SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND: z.coerce.number().min(0).default(20),
      SIGHTLINE_RATE_LIMIT_KEY_BURST: z.coerce.number().int().min(1).default(100),
      /** The same for one client address, counted before any key is looked up. */
      SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND: z.coerce.number().min(0).default(50),
      SIGHTLINE_RATE_LIMIT_CLIENT_BURST: z.coerce.number().int().min(1).default(200),
      /** Events per monitored account: a `terraform apply` may post hundreds in seconds. */
      SIGHTLINE_RATE_LIMIT_EVENTS_PER_SECOND: z.coerce.number().min(0).default(20),
      SIGHTLINE_RATE_LIMIT_EVENTS_BURST: z.coerce.number().int().min(1).default(500),
      /**
       * How many API processes serve the same clients: each enforces 1/N of the rates and bursts
       * above, so that together they allow the configured figures (the buckets are per process).
       */
      SIGHTLINE_API_PROCESSES: z.coerce.number().int().min(1).max(1000).default(1),
      /** New API keys must expire within this many days (`expiresAt` required); unbounded when unset. */
      SIGHTLINE_KEY_MAX_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
      /** Audit events older than this many days are pruned (the pruning is itself recorded). */
      SIGHTLINE_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
      /** PEM files: when both are set, the API serves HTTPS (reloaded on SIGHUP). */
      TLS_CERT_FILE: z.string().min(1).optional(),
      TLS_KEY_FILE: z.string().min(1).optional(),
      /** Behind a proxy: the client address is the last one in X-Forwarded-For. */
      TRUST_PROXY: z
        .enum(["true", "false"], { message: "must be true or false" })
        .default("false")
        .transform((value) => value === "true"),
    }),
    PipelineConfig,
  )
  .refine(
    (config) => (config.TLS_CERT_FILE === undefined) === (config.TLS_KEY_FILE === undefined),
    {
      path: ["TLS_KEY_FILE"],
      message: "TLS_CERT_FILE and TLS_KEY_FILE are set together, or neither",
    },
  )
  .refine(
    (config) =>
      config.SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND === 0 ||
      config.SIGHTLINE_RATE_LIMIT_KEY_BURST >= config.SIGHTLINE_API_PROCESSES,
    {
      path: ["SIGHTLINE_RATE_LIMIT_KEY_BURST"],
      message: "must be at least SIGHTLINE_API_PROCESSES: each process allows burst / processes",
    },
  )
  .refine(
    (config) =>
      config.SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND === 0 ||
      config.SIGHTLINE_RATE_LIMIT_CLIENT_BURST >= config.SIGHTLINE_API_PROCESSES,
    {
      path: ["SIGHTLINE_RATE_LIMIT_CLIENT_BURST"],
      message: "must be at least SIGHTLINE_API_PROCESSES: each process allows burst / processes",
    },
  )
  .refine(
    (config) =>
      config.SIGHTLINE_HEADERS_TIMEOUT_SECONDS <= config.SIGHTLINE_REQUEST_TIMEOUT_SECONDS,
    {
      path: ["SIGHTLINE_HEADERS_TIMEOUT_SECONDS"],
      message: "must not exceed SIGHTLINE_REQUEST_TIMEOUT_SECONDS",
    },
  );
export type ApiConfig = z.infer<typeof ApiConfig>;
