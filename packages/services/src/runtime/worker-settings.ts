import { readFileSync } from "node:fs";
import path from "node:path";
import type { AppSecret } from "@sightline/azure";
import {
  type AlertSettings,
  type AllowedHost,
  parseAllowedHost,
} from "../alerts/alert-settings.ts";
import type { AnalysisSettings, AzureSettings } from "../analysis/analysis-settings.ts";
import { DEFAULT_LEASE_SETTINGS } from "../queue/lease-keeper.ts";
import { DEFAULT_EVENT_SETTINGS } from "../worker/event-job.ts";
import type { WorkerSettings } from "../worker/start-worker.ts";
import type { PipelineConfig } from "./worker-config.ts";

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
      keptPrincipals: config.SIGHTLINE_EVENT_KEPT_PRINCIPALS,
      failedStepPauseSeconds: config.SIGHTLINE_EVENT_FAILED_PAUSE_SECONDS,
      snapshotRetentionHours: config.SIGHTLINE_EVENT_SNAPSHOT_RETENTION_HOURS,
    },
  };
}

/** How alerts are delivered, from the environment (see docs/configuration.md). */
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
