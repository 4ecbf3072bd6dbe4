import { BaseConfig, estimateEntropyBits, OPERATOR_KEY_MIN_BITS } from "@sightline/runtime";
import { PipelineConfig } from "@sightline/services";
import { z } from "zod";

/** The service's configuration, read from the environment once at start-up. */
export const ApiConfig = z
  .intersection(
    BaseConfig.extend({
      SIGHTLINE_ROLE: z.enum(["all", "api", "worker"]).default("all").meta({
        description:
          "`all`: the API, and a worker in a child process that it starts, restarts when it dies (after 1 s, up to 30 s apart) and stops with itself, so that no analysis runs on the API's event loop; `api` or `worker` to run them apart, on as many processes and machines as needed, sharing the database and queue (`apps/worker` is a worker-only process)",
      }),
      HOST: z.string().min(1).default("127.0.0.1").meta({
        accepts: "a host name or IP address",
        description: "the address the API listens on (`0.0.0.0` in a container)",
      }),
      PORT: z.coerce
        .number()
        .int()
        .min(0)
        .max(65_535)
        .default(8080)
        .meta({ description: "the port the API listens on" }),
      SIGHTLINE_ADMIN_KEY: z
        .string()
        .min(32, "must be at least 32 characters")
        .refine(
          (key) => estimateEntropyBits(key) >= OPERATOR_KEY_MIN_BITS,
          `must be random: at least ${OPERATOR_KEY_MIN_BITS} bits of entropy (e.g. the output of \`openssl rand -base64 32\`); repeated or few distinct characters are refused`,
        )
        .optional()
        .meta({
          accepts: "at least 32 random characters",
          description: `the operator key: at least 32 characters and ${OPERATOR_KEY_MIN_BITS} bits of estimated entropy (length × the Shannon entropy of its characters; \`openssl rand -base64 32\` passes, \`aaaa…\` does not)`,
          defaultText: "generated once into `<data dir>/admin-key` (mode 600) on the first start",
        }),
      SIGHTLINE_PUBLIC_URL: z
        .url({ protocol: /^https?$/ })
        .optional()
        .meta({
          description:
            "where clients reach the API (behind a TLS proxy, its `https://` address); the OpenAPI `servers` entry",
          defaultText: "`http://HOST:PORT`",
        }),
      SIGHTLINE_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30).meta({
        description:
          "a client must send its whole request (headers and body) within this time; a slower one gets `408` and is disconnected",
      }),
      SIGHTLINE_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10).meta({
        description:
          "… and its headers within this time (at most `SIGHTLINE_REQUEST_TIMEOUT_SECONDS`)",
      }),
      SIGHTLINE_DB_STATEMENT_TIMEOUT_SECONDS: z.coerce
        .number()
        .int()
        .min(1)
        .max(3600)
        .default(10)
        .meta({
          description:
            "a request's query is cancelled after this long; the answer is `503` with `Retry-After`, as for a database that cannot be reached (the worker's queries have no such bound)",
        }),
      SIGHTLINE_DB_LOCK_TIMEOUT_SECONDS: z.coerce
        .number()
        .int()
        .min(1)
        .max(3600)
        .default(5)
        .meta({ description: "… and after waiting this long for a lock" }),
      SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND: z.coerce.number().min(0).default(20).meta({
        description:
          "requests per second one API key may sustain, across all API processes when `SIGHTLINE_API_PROCESSES` is their number (token buckets per process, each 1/N of the figure); past it `429` with `Retry-After`; every authenticated answer carries `RateLimit-Limit` (the process's share of the burst), `-Remaining`, `-Reset`; `0` turns the limit off",
      }),
      SIGHTLINE_RATE_LIMIT_KEY_BURST: z.coerce.number().int().min(1).default(100).meta({
        description: "the burst of one API key's limit (at least `SIGHTLINE_API_PROCESSES`)",
      }),
      SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND: z.coerce.number().min(0).default(50).meta({
        description:
          "the same per client address, counted before any key is looked up (health probes aside); `0` turns it off",
      }),
      SIGHTLINE_RATE_LIMIT_CLIENT_BURST: z.coerce.number().int().min(1).default(200).meta({
        description: "the burst of one client address's limit (at least `SIGHTLINE_API_PROCESSES`)",
      }),
      SIGHTLINE_RATE_LIMIT_EVENTS_PER_SECOND: z.coerce.number().min(0).default(20).meta({
        description:
          "events per second one monitored account may post to `POST /events/aws` (a `terraform apply` may post hundreds in seconds; per process, 1/N as above); that route has no per-address limit, since EventBridge posts from addresses AWS shares",
      }),
      SIGHTLINE_RATE_LIMIT_EVENTS_BURST: z.coerce
        .number()
        .int()
        .min(1)
        .default(500)
        .meta({ description: "the burst of one monitored account's events" }),
      SIGHTLINE_API_PROCESSES: z.coerce.number().int().min(1).max(1000).default(1).meta({
        description:
          "N, the number of API processes serving the same clients: each enforces 1/N of the rate limits' rates and bursts (bursts rounded down; a burst below N is refused), so that together they allow the configured figures",
      }),
      SIGHTLINE_KEY_MAX_DAYS: z.coerce.number().int().min(1).max(36_500).optional().meta({
        description:
          "when set, every new API key needs an `expiresAt` at most this many days ahead (`400` naming the rule otherwise); unset, `expiresAt` is optional and unbounded. Keys existing before it keep theirs",
      }),
      SIGHTLINE_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400).meta({
        description:
          "audit events older than this many days are deleted (every six hours, by the API processes; or `sightline audit prune`), each pruning recorded in its tenant's chain",
      }),
      TLS_CERT_FILE: z.string().min(1).optional().meta({
        accepts: "a file path",
        description:
          "a PEM certificate chain: with `TLS_KEY_FILE`, the API serves HTTPS, with `Strict-Transport-Security`; `kill -HUP` reads both files again, so certificates rotate without a restart",
      }),
      TLS_KEY_FILE: z.string().min(1).optional().meta({
        accepts: "a file path",
        description: "the certificate's PEM private key (set with `TLS_CERT_FILE`, or neither)",
      }),
      TRUST_PROXY: z
        .enum(["true", "false"], { message: "must be true or false" })
        .default("false")
        .transform((value) => value === "true")
        .meta({
          description:
            "`true` behind a TLS-terminating proxy: a client's address (for its rate limit) is the last entry of `X-Forwarded-For`",
        }),
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
