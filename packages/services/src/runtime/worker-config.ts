import { readFileSync } from "node:fs";
import path from "node:path";
import type { AppSecret } from "@sightline/azure";
import { REPORT_FORMATS } from "@sightline/reports/formats";
import { z } from "zod";
import {
  type AlertSettings,
  type AllowedHost,
  DEFAULT_ALERT_RETRY,
  parseAllowedHost,
} from "../alerts/alert-settings.ts";
import type { AnalysisSettings, AzureSettings } from "../analysis/analysis-settings.ts";
import { DEFAULT_QUEUE_SETTINGS } from "../queue/analysis-queue.ts";
import { DEFAULT_LEASE_SETTINGS } from "../queue/lease-keeper.ts";
import { DEFAULT_EVENT_SETTINGS } from "../worker/event-job.ts";
import type { WorkerSettings } from "../worker/start-worker.ts";

const list = z.string().transform((text) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean),
);

/** The analysis pipeline's settings, from the environment (see the README's table). */
export const PipelineConfig = z
  .object({
    /** An AWS KMS key wraps own credentials' data keys; unset: a local key in the data dir. */
    SIGHTLINE_KMS_KEY_ID: z.string().min(1).optional(),
    SIGHTLINE_CVS_URL: z.url({ protocol: /^https?$/ }).optional(),
    SIGHTLINE_CVS_TOKEN: z.string().min(1).optional(),
    SIGHTLINE_AWS_REGIONS: list.optional(),
    /** Sightline's own multi-tenant Entra ID application: its client ID, and a secret or a certificate. */
    SIGHTLINE_AZURE_CLIENT_ID: z
      .string()
      .regex(
        /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
        "must be an application (client) ID (a UUID)",
      )
      .optional(),
    SIGHTLINE_AZURE_CLIENT_SECRET: z.string().min(1).optional(),
    /** A PEM file holding the application's certificate and its private key. */
    SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH: z.string().min(1).optional(),
    /** Endpoint overrides (private clouds, tests); the defaults are each cloud's own. */
    SIGHTLINE_AZURE_ARM_URL: z.url({ protocol: /^https$/ }).optional(),
    SIGHTLINE_AZURE_GRAPH_URL: z.url({ protocol: /^https$/ }).optional(),
    SIGHTLINE_AZURE_AUTHORITY_HOST: z.url({ protocol: /^https$/ }).optional(),
    /** `xlsx` adds k9's workbook of an AWS account's reports to the row formats. */
    SIGHTLINE_REPORT_FORMATS: list
      .pipe(z.array(z.enum([...REPORT_FORMATS, "xlsx"])).min(1, "must name at least one format"))
      .default(["csv", "parquet"]),
    /** S3-compatible inbox endpoints (and the loopback fake) need path-style bucket addressing. */
    SIGHTLINE_S3_FORCE_PATH_STYLE: z.stringbool().default(false),
    /** A transition after the upgrade: deliver to destinations not proven yet, with a warning. */
    SIGHTLINE_ALLOW_UNPROVEN_DESTINATIONS: z.stringbool().default(false),
    SIGHTLINE_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
    SIGHTLINE_DAILY_CRON: z.string().min(9).default("0 7 * * *"),
    SIGHTLINE_DAILY_WINDOW_MINUTES: z.coerce.number().int().min(0).max(1440).default(240),
    SIGHTLINE_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
    SIGHTLINE_JOB_RETRY_LIMIT: z.coerce
      .number()
      .int()
      .min(0)
      .max(20)
      .default(DEFAULT_QUEUE_SETTINGS.retryLimit),
    SIGHTLINE_JOB_RETRY_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_QUEUE_SETTINGS.retryDelaySeconds),
    SIGHTLINE_JOB_EXPIRE_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .default(DEFAULT_QUEUE_SETTINGS.expireInSeconds),
    SIGHTLINE_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
    SIGHTLINE_EVENTS_SQS_URL: z.url({ protocol: /^https?$/ }).optional(),
    SIGHTLINE_EVENT_QUIET_SECONDS: z.coerce
      .number()
      .min(0)
      .max(300)
      .default(DEFAULT_EVENT_SETTINGS.quietSeconds),
    SIGHTLINE_EVENT_MAX_WAIT_SECONDS: z.coerce
      .number()
      .min(0)
      .max(600)
      .default(DEFAULT_EVENT_SETTINGS.maxWaitSeconds),
    SIGHTLINE_EVENT_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(32)
      .default(DEFAULT_EVENT_SETTINGS.concurrency),
    SIGHTLINE_LEASE_RENEW_SECONDS: z.coerce
      .number()
      .min(0.2)
      .max(60)
      .default(DEFAULT_LEASE_SETTINGS.renewSeconds),
    SIGHTLINE_LEASE_LOST_AFTER_SECONDS: z.coerce
      .number()
      .min(1)
      .max(600)
      .default(DEFAULT_LEASE_SETTINGS.lostAfterSeconds),
    SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(DEFAULT_LEASE_SETTINGS.maxRunSeconds.analysis),
    /** Internal hosts alert webhooks may reach (tests, an internal relay): `name` or `name:port`. */
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
      .default([]),
    /** The operator's mail relay for email alerts, `smtp://user:pass@relay:587` (never logged). */
    SIGHTLINE_SMTP_URL: z
      .url({ protocol: /^smtps?$/, message: "must be an smtp:// or smtps:// URL" })
      .optional(),
    SIGHTLINE_ALERT_EMAIL_FROM: z.email({ message: "must be an email address" }).optional(),
    /** PEM certificates webhooks' TLS may chain to, besides the system's CAs. */
    SIGHTLINE_ALERT_CA_FILE: z.string().min(1).optional(),
    SIGHTLINE_ALERT_RETRY_LIMIT: z.coerce
      .number()
      .int()
      .min(0)
      .max(20)
      .default(DEFAULT_ALERT_RETRY.limit),
    SIGHTLINE_ALERT_RETRY_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(DEFAULT_ALERT_RETRY.delaySeconds),
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

/** Sightline's Azure application and endpoint overrides; undefined when nothing is set. */
function azureSettingsOf(config: PipelineConfig): AzureSettings | undefined {
  const appSecret: AppSecret | undefined = config.SIGHTLINE_AZURE_CLIENT_SECRET
    ? { kind: "secret", clientSecret: config.SIGHTLINE_AZURE_CLIENT_SECRET }
    : config.SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH
      ? { kind: "certificate", certificatePath: config.SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH }
      : undefined;
  const endpoints = {
    ...(config.SIGHTLINE_AZURE_ARM_URL ? { armUrl: config.SIGHTLINE_AZURE_ARM_URL } : {}),
    ...(config.SIGHTLINE_AZURE_GRAPH_URL ? { graphUrl: config.SIGHTLINE_AZURE_GRAPH_URL } : {}),
    ...(config.SIGHTLINE_AZURE_AUTHORITY_HOST
      ? { authorityHost: config.SIGHTLINE_AZURE_AUTHORITY_HOST }
      : {}),
  };
  const settings: AzureSettings = {
    ...(appSecret ? { appSecret } : {}),
    ...(config.SIGHTLINE_AZURE_CLIENT_ID ? { clientId: config.SIGHTLINE_AZURE_CLIENT_ID } : {}),
    ...(Object.keys(endpoints).length > 0 ? { endpoints } : {}),
  };
  return Object.keys(settings).length > 0 ? settings : undefined;
}

export function analysisSettingsOf(config: PipelineConfig, dataDir: string): AnalysisSettings {
  const azure = azureSettingsOf(config);
  return {
    ...(azure ? { azure } : {}),
    inboxDir: path.join(dataDir, "inbox"),
    workDir: path.join(dataDir, "work"),
    formats: config.SIGHTLINE_REPORT_FORMATS.filter((format) => format !== "xlsx"),
    ...(config.SIGHTLINE_REPORT_FORMATS.includes("xlsx") ? { workbook: true } : {}),
    ...(config.SIGHTLINE_ALLOW_UNPROVEN_DESTINATIONS ? { allowUnprovenDestinations: true } : {}),
    ...(config.SIGHTLINE_AWS_REGIONS ? { regions: config.SIGHTLINE_AWS_REGIONS } : {}),
    ...(config.SIGHTLINE_CVS_URL && config.SIGHTLINE_CVS_TOKEN
      ? { credentialVending: { url: config.SIGHTLINE_CVS_URL, token: config.SIGHTLINE_CVS_TOKEN } }
      : {}),
    ...(config.SIGHTLINE_S3_FORCE_PATH_STYLE
      ? { awsClientOptions: { s3ForcePathStyle: true } }
      : {}),
  };
}

export function workerSettingsOf(config: PipelineConfig, dataDir: string): WorkerSettings {
  return {
    analysis: analysisSettingsOf(config, dataDir),
    queue: {
      retryLimit: config.SIGHTLINE_JOB_RETRY_LIMIT,
      retryDelaySeconds: config.SIGHTLINE_JOB_RETRY_DELAY_SECONDS,
      expireInSeconds: config.SIGHTLINE_JOB_EXPIRE_SECONDS,
      lease: {
        ...DEFAULT_LEASE_SETTINGS,
        renewSeconds: config.SIGHTLINE_LEASE_RENEW_SECONDS,
        lostAfterSeconds: config.SIGHTLINE_LEASE_LOST_AFTER_SECONDS,
        maxRunSeconds: {
          ...DEFAULT_LEASE_SETTINGS.maxRunSeconds,
          analysis: config.SIGHTLINE_ANALYSIS_MAX_RUN_SECONDS,
        },
      },
    },
    concurrency: config.SIGHTLINE_WORKER_CONCURRENCY,
    dailyCron: config.SIGHTLINE_DAILY_CRON,
    dailyWindowMinutes: config.SIGHTLINE_DAILY_WINDOW_MINUTES,
    snapshotRetentionDays: config.SIGHTLINE_SNAPSHOT_RETENTION_DAYS,
    pollingIntervalSeconds: config.SIGHTLINE_POLL_SECONDS,
    ...(config.SIGHTLINE_EVENTS_SQS_URL ? { eventQueueUrl: config.SIGHTLINE_EVENTS_SQS_URL } : {}),
    events: {
      ...DEFAULT_EVENT_SETTINGS,
      quietSeconds: config.SIGHTLINE_EVENT_QUIET_SECONDS,
      maxWaitSeconds: config.SIGHTLINE_EVENT_MAX_WAIT_SECONDS,
      concurrency: config.SIGHTLINE_EVENT_CONCURRENCY,
    },
  };
}

/** How alerts are delivered, from the environment (see the README's table). */
export function alertSettingsOf(config: PipelineConfig): AlertSettings {
  const allowedHosts = config.SIGHTLINE_ALERT_ALLOWED_HOSTS.map(
    (entry) => parseAllowedHost(entry) as AllowedHost,
  );
  const caFile = config.SIGHTLINE_ALERT_CA_FILE;
  return {
    allowedHosts,
    retry: {
      limit: config.SIGHTLINE_ALERT_RETRY_LIMIT,
      delaySeconds: config.SIGHTLINE_ALERT_RETRY_DELAY_SECONDS,
    },
    ...(config.SIGHTLINE_SMTP_URL && config.SIGHTLINE_ALERT_EMAIL_FROM
      ? { smtp: { url: config.SIGHTLINE_SMTP_URL, from: config.SIGHTLINE_ALERT_EMAIL_FROM } }
      : {}),
    ...(caFile ? { caCertificates: [readFileSync(caFile, "utf8")] } : {}),
    ...(config.SIGHTLINE_S3_FORCE_PATH_STYLE
      ? { aws: { clientOptions: { s3ForcePathStyle: true } } }
      : {}),
  };
}
