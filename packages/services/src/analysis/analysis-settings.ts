import type { AwsClientOptions, AwsCredentials } from "@sightline/aws";
import type { AppSecret, AzureEndpoints, AzureHttpOptions } from "@sightline/azure";
import type { ReportFiles, ReportFormat } from "@sightline/reports";

/** How the worker reaches the clouds and where it writes: built once from configuration. */
export interface AnalysisSettings {
  /** SDK endpoints and retries for collection and delivery. */
  awsClientOptions?: AwsClientOptions;
  /** Sightline's own credentials for AssumeRole and delivery. Default: the SDK's chain. */
  serviceCredentials?: AwsCredentials;
  /** The credential vending service of the `cvs` method. */
  credentialVending?: { url: string; token: string };
  /** Azure: Sightline's own Entra ID application and where the clouds are. */
  azure?: AzureSettings;
  /** Regions whose KMS keys are read. Default: the account's enabled regions. */
  regions?: readonly string[];
  /** The local folder inbox, for customers without an S3 inbox (`<data dir>/inbox`). */
  inboxDir: string;
  /** Scratch space: each execution writes its files in a folder of its own, then removes it. */
  workDir: string;
  /** Tuning of collection (defaults suit production). */
  collection?: { credentialReportPollMs?: number; concurrency?: number };
  /** Formats of the dated and latest copies; Parquet is added for the hive copy. */
  formats: readonly ReportFormat[];
  /** Also k9's `resource-access-audit` workbook of an AWS account (`xlsx` in the formats setting). */
  workbook?: boolean;
  /**
   * Deliver to S3 destinations whose owner has not proven the bucket, with a warning on every
   * delivery (`SIGHTLINE_ALLOW_UNPROVEN_DESTINATIONS`): only for the transition after an upgrade.
   */
  allowUnprovenDestinations?: boolean;
  /**
   * S3 inbox uploads: files of at least `multipartThresholdBytes` (default 64 MiB) go as multipart
   * uploads in parts of `partSizeBytes` (default 16 MiB, at least S3's 5 MiB).
   */
  delivery?: { multipartThresholdBytes?: number; partSizeBytes?: number };
  /** How often a running execution's progress is written at most (default 3 s). */
  progressIntervalSeconds?: number;
  /**
   * How the report writers and the folder inbox write files: the local disk unless a test gives
   * its own (a full disk, a write that never ends).
   */
  files?: WorkerFiles;
}

/** The file writes of an analysis: its report files, and the folder inbox's copies. */
export interface WorkerFiles extends ReportFiles {
  copyFile(source: string, target: string): Promise<void>;
  writeFile(target: string, bytes: Uint8Array): Promise<void>;
}

export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ["csv", "parquet"];

/** How the worker reaches Azure as Sightline's own multi-tenant Entra ID application. */
export interface AzureSettings {
  /** The application's client secret or certificate; unset, Azure `config` accounts fail with a message for the operator. */
  appSecret?: AppSecret;
  /** Sightline's application (client) ID: when set, a `config` account must name this one. */
  clientId?: string;
  /** Replace the clouds' endpoints (tests, private clouds); the token scopes stay the cloud's. */
  endpoints?: Partial<AzureEndpoints>;
  http?: AzureHttpOptions;
}
