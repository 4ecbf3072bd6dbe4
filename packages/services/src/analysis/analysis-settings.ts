import type { AwsClientOptions, AwsCredentials } from "@sightline/aws";
import type { ReportFormat } from "@sightline/reports";

/** How the worker reaches the clouds and where it writes: built once from configuration. */
export interface AnalysisSettings {
  /** SDK endpoints and retries for collection and delivery. */
  awsClientOptions?: AwsClientOptions;
  /** Sightline's own credentials for AssumeRole and delivery. Default: the SDK's chain. */
  serviceCredentials?: AwsCredentials;
  /** The credential vending service of the `cvs` method. */
  credentialVending?: { url: string; token: string };
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
}

export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ["csv", "jsonl"];
