import { REPORT_FORMATS } from "@sightline/reports/formats";
import { z } from "zod";
import { DEFAULT_ALERT_RETRY, parseAllowedHost } from "../alerts/alert-settings.ts";
import { DEFAULT_QUEUE_SETTINGS } from "../queue/analysis-queue.ts";
import { DEFAULT_LEASE_SETTINGS } from "../queue/lease-keeper.ts";
import { DEFAULT_EVENT_SETTINGS } from "../worker/event-job.ts";

const list = z
  .string()
  .transform((text) =>
    text
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .meta({ accepts: "a comma-separated list" });

const decimal = (min: number, max?: number) =>
  max === undefined ? z.coerce.number().min(min) : z.coerce.number().min(min).max(max);
const whole = (min: number, max?: number) => decimal(min, max).int();

/**
 * The analysis pipeline's settings, from the environment: read by the workers, and by the API
 * (which starts or stands beside them). Each variable's `.meta({ description, defaultText,
 * accepts })` is its entry in `docs/configuration.md` (`pnpm docs:configuration`).
 */
export const PipelineConfig = z
  .object({
    SIGHTLINE_KMS_KEY_ID: z.string().min(1).optional().meta({
      accepts: "a KMS key ARN",
      description:
        "the ARN of an AWS KMS key (its region is the ARN's) that wraps the data keys of own credentials and alert destinations' secrets",
      defaultText: "a local key generated once into `<data dir>/master-key` (mode 600)",
    }),
    SIGHTLINE_CVS_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({
        description:
          "the credential vending service of `auditorAuthMethod: cvs` (protocol in `packages/aws/README.md`); set with `SIGHTLINE_CVS_TOKEN`",
      }),
    SIGHTLINE_CVS_TOKEN: z.string().min(1).optional().meta({
      description: "Sightline's bearer token for the credential vending service (never logged)",
    }),
    SIGHTLINE_AWS_REGIONS: list.optional().meta({
      description: "comma-separated regions whose KMS keys are collected",
      defaultText: "the account's enabled regions",
    }),
    SIGHTLINE_AZURE_CLIENT_ID: z
      .string()
      .regex(
        /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
        "must be an application (client) ID (a UUID)",
      )
      .optional()
      .meta({
        accepts: "a UUID",
        description:
          "the client ID of Sightline's own multi-tenant Entra ID application; when set, an Azure account must name it in `auditorAuthConfig.clientId`",
      }),
    SIGHTLINE_AZURE_CLIENT_SECRET: z.string().min(1).optional().meta({
      description:
        "that application's client secret (never logged); it or `SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH`, not both: without either, Azure `config` accounts fail saying so",
    }),
    SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH: z.string().min(1).optional().meta({
      accepts: "a file path",
      description: "a PEM file holding that application's certificate and its private key",
    }),
    SIGHTLINE_AZURE_ARM_URL: z
      .url({ protocol: /^https$/ })
      .optional()
      .meta({
        description:
          "replaces the Azure Resource Manager endpoint (private clouds, tests); `azure-government` defaults to `https://management.usgovcloudapi.net`",
        defaultText: "the cloud's",
      }),
    SIGHTLINE_AZURE_GRAPH_URL: z
      .url({ protocol: /^https$/ })
      .optional()
      .meta({
        description:
          "replaces the Microsoft Graph endpoint; `azure-government` defaults to `https://graph.microsoft.us`",
        defaultText: "the cloud's",
      }),
    SIGHTLINE_AZURE_AUTHORITY_HOST: z
      .url({ protocol: /^https$/ })
      .optional()
      .meta({
        description:
          "replaces the Entra ID sign-in endpoint; `azure-government` defaults to `https://login.microsoftonline.us`",
        defaultText: "the cloud's",
      }),
    SIGHTLINE_REPORT_FORMATS: list
      .pipe(z.array(z.enum([...REPORT_FORMATS, "xlsx"])).min(1, "must name at least one format"))
      .default(["csv", "parquet"])
      .meta({
        description:
          "formats of the dated and latest reports: `csv` is k9's four CSVs (Sightline's columns for Azure); `parquet` and `jsonl` hold Sightline's full rows and the access paths, under the account's `sightline/` folder (Parquet when only `csv` is named); `xlsx` adds k9's `resource-access-audit.<stamp>.xlsx` workbook of an AWS account (dated, listed in the manifest; off by default: it writes about 63,000 rows/s, some 90 s for a 10,000-principal account); the hive copy is always Parquet",
      }),
    SIGHTLINE_S3_FORCE_PATH_STYLE: z.stringbool().default(false).meta({
      description:
        "path-style bucket addressing, for S3-compatible inbox endpoints (and the loopback fake)",
    }),
    SIGHTLINE_ALLOW_UNPROVEN_DESTINATIONS: z.stringbool().default(false).meta({
      description:
        "`true` delivers to S3 buckets whose owner has not proven them yet, with a warning in every such execution and manifest: only for the transition after the upgrade that introduced the proof",
    }),
    SIGHTLINE_WORKER_CONCURRENCY: whole(1, 32).default(1).meta({
      description: "analyses one worker process runs at once (about 1 GiB of memory each)",
    }),
    SIGHTLINE_DAILY_CRON: z.string().min(9).default("0 7 * * *").meta({
      accepts: "a cron expression",
      description: "when the daily analysis starts (a cron expression, UTC)",
    }),
    SIGHTLINE_DAILY_WINDOW_MINUTES: whole(0, 1440)
      .default(240)
      .meta({ description: "the daily analyses are spread evenly over this window" }),
    SIGHTLINE_SNAPSHOT_RETENTION_DAYS: whole(1).default(30).meta({
      description: "collected snapshots are kept this long (each account's newest always)",
    }),
    SIGHTLINE_EVENT_SNAPSHOT_RETENTION_HOURS: whole(1, 8760)
      .default(DEFAULT_EVENT_SETTINGS.snapshotRetentionHours)
      .meta({
        description:
          "an event step's snapshot (each step stores the account patched, whole) is kept this long, unless it is the account's newest or that of the stored results; a full analysis's follows `SIGHTLINE_SNAPSHOT_RETENTION_DAYS`",
      }),
    SIGHTLINE_JOB_RETRY_LIMIT: whole(0, 20).default(DEFAULT_QUEUE_SETTINGS.retryLimit).meta({
      description:
        "retries of an analysis that failed in a way that may pass (throttling, outages), with exponential back-off",
    }),
    SIGHTLINE_JOB_RETRY_DELAY_SECONDS: whole(1)
      .default(DEFAULT_QUEUE_SETTINGS.retryDelaySeconds)
      .meta({ description: "the first retry's delay, doubling at each retry" }),
    SIGHTLINE_JOB_EXPIRE_SECONDS: whole(10).default(DEFAULT_QUEUE_SETTINGS.expireInSeconds).meta({
      description:
        "the queue's last resort: a job active this long is failed into a retry; it must exceed `SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS` (the lease brings a dead worker's job back long before)",
    }),
    SIGHTLINE_POLL_SECONDS: decimal(0.5, 60).default(1).meta({
      description:
        "how often an idle worker asks for a job (the daily, maintenance and lost-job queues: every 5 s at least)",
    }),
    SIGHTLINE_EVENTS_SQS_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({
        description:
          "an SQS queue of CloudTrail events (one central EventBridge bus for many accounts) that the workers consume with Sightline's own credentials",
      }),
    SIGHTLINE_EVENT_QUIET_SECONDS: decimal(0, 300)
      .default(DEFAULT_EVENT_SETTINGS.quietSeconds)
      .meta({
        description:
          "an account's CloudTrail events wait until none came for this long (a `terraform apply` is one step) …",
      }),
    SIGHTLINE_EVENT_MAX_WAIT_SECONDS: decimal(0, 600)
      .default(DEFAULT_EVENT_SETTINGS.maxWaitSeconds)
      .meta({ description: "… but never longer than this after the first of them" }),
    SIGHTLINE_EVENT_CONCURRENCY: whole(1, 32).default(DEFAULT_EVENT_SETTINGS.concurrency).meta({
      description:
        "event steps one worker process runs at once, beside its analyses (their own lane: they never wait behind full analyses)",
    }),
    SIGHTLINE_EVENT_KEPT_PRINCIPALS: whole(0, 10_000_000)
      .default(DEFAULT_EVENT_SETTINGS.keptPrincipals)
      .meta({
        description:
          "principals, over all accounts, whose last event step a worker keeps in memory (the account as patched, and its model) so that the account's next step starts from them instead of the stored snapshot; 0 keeps none",
      }),
    SIGHTLINE_EVENT_FAILED_PAUSE_SECONDS: decimal(0, 86_400)
      .default(DEFAULT_EVENT_SETTINGS.failedStepPauseSeconds)
      .meta({
        description:
          "after an account's event step failed (its auditor role refused, the account gone), its events wait this long before the next step tries them, rather than failing again at once; a full analysis that succeeds meanwhile takes them in",
      }),
    SIGHTLINE_LEASE_RENEW_SECONDS: decimal(0.2, 60)
      .default(DEFAULT_LEASE_SETTINGS.renewSeconds)
      .meta({ description: "a running job's worker renews its lease this often" }),
    SIGHTLINE_LEASE_LOST_AFTER_SECONDS: decimal(1, 600)
      .default(DEFAULT_LEASE_SETTINGS.lostAfterSeconds)
      .meta({
        description:
          "a lease not renewed for this long is lost, and any worker runs the job again at once (no back-off, no retry counted); at least twice `SIGHTLINE_LEASE_RENEW_SECONDS`",
      }),
    SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS: whole(60)
      .default(DEFAULT_LEASE_SETTINGS.maxRunSeconds.analysis)
      .meta({
        description:
          "an analysis still running (its worker alive and renewing) after this long is hung: it ends `failed` with `RUN_TIME_EXCEEDED` (event steps: 300 s, alerts: 600 s)",
      }),
    SIGHTLINE_ALERT_ALLOWED_HOSTS: list
      .pipe(
        z.array(
          z
            .string()
            .refine(
              (entry) => parseAllowedHost(entry) !== undefined,
              "must list host names or IP addresses, each optionally with :port (e.g. hooks.corp.example:8443)",
            ),
        ),
      )
      .default([])
      .meta({
        accepts: "a comma-separated list of `host` or `host:port`",
        description:
          "comma-separated host names or IP addresses, each optionally `:port` (`hooks.corp.example:8443`, `127.0.0.1`): internal hosts that alert webhooks may reach, over `https://` or `http://` (every other webhook must be `https://` to a public address)",
      }),
    SIGHTLINE_SMTP_URL: z
      .url({ protocol: /^smtps?$/, message: "must be an smtp:// or smtps:// URL" })
      .optional()
      .meta({
        description:
          "the mail relay of email alerts, `smtp://user:pass@relay:587` (`smtps://` for implicit TLS; never logged); without a relay, email destinations are refused",
      }),
    SIGHTLINE_ALERT_EMAIL_FROM: z
      .email({ message: "must be an email address" })
      .optional()
      .meta({ description: "the sender of alert emails (required with `SIGHTLINE_SMTP_URL`)" }),
    SIGHTLINE_ALERT_CA_FILE: z.string().min(1).optional().meta({
      accepts: "a file path",
      description:
        "a PEM file of CA certificates that webhooks' TLS may chain to, besides the system's (an internal CA); TLS is always verified",
    }),
    SIGHTLINE_ALERT_RETRY_LIMIT: whole(0, 20).default(DEFAULT_ALERT_RETRY.limit).meta({
      description:
        "retries of an alert that failed in a way that may pass (5xx, 429, network, a relay's 4xx, throttling), with exponential back-off: about 30 minutes in all by default",
    }),
    SIGHTLINE_ALERT_RETRY_DELAY_SECONDS: whole(1, 3600)
      .default(DEFAULT_ALERT_RETRY.delaySeconds)
      .meta({ description: "the first alert retry's delay, doubling at each retry" }),
  })
  .refine((c) => c.SIGHTLINE_SMTP_URL === undefined || c.SIGHTLINE_ALERT_EMAIL_FROM !== undefined, {
    path: ["SIGHTLINE_ALERT_EMAIL_FROM"],
    message: "is required with SIGHTLINE_SMTP_URL (the sender of alert emails)",
  })
  .refine((c) => c.SIGHTLINE_LEASE_LOST_AFTER_SECONDS >= 2 * c.SIGHTLINE_LEASE_RENEW_SECONDS, {
    path: ["SIGHTLINE_LEASE_LOST_AFTER_SECONDS"],
    message:
      "must be at least twice SIGHTLINE_LEASE_RENEW_SECONDS (a lease must survive a missed renewal)",
  })
  .refine((c) => c.SIGHTLINE_JOB_EXPIRE_SECONDS > c.SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS, {
    path: ["SIGHTLINE_JOB_EXPIRE_SECONDS"],
    message:
      "must exceed SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS (the queue's expiry is the last resort)",
  })
  .refine((c) => (c.SIGHTLINE_CVS_URL === undefined) === (c.SIGHTLINE_CVS_TOKEN === undefined), {
    path: ["SIGHTLINE_CVS_TOKEN"],
    message: "SIGHTLINE_CVS_URL and SIGHTLINE_CVS_TOKEN go together",
  })
  .refine(
    (c) =>
      c.SIGHTLINE_AZURE_CLIENT_SECRET === undefined ||
      c.SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH === undefined,
    {
      path: ["SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH"],
      message:
        "set SIGHTLINE_AZURE_CLIENT_SECRET or SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH, not both",
    },
  );
export type PipelineConfig = z.infer<typeof PipelineConfig>;
