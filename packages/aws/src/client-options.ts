import type { AwsCredentials } from "./aws-credentials.ts";

/** The AWS services Sightline calls, by their SigV4 signing name. */
export type AwsService =
  | "sts"
  | "iam"
  | "s3"
  | "kms"
  | "organizations"
  | "ec2"
  | "securityhub"
  | "sqs";

/** How SDK clients are built. Every field is optional; the defaults suit production. */
export interface AwsClientOptions {
  /**
   * An endpoint per service, for air-gapped installs, `aws-iso*` partitions and the loopback
   * fake. Without one, the SDK honours `AWS_ENDPOINT_URL_<SERVICE>`, then the partition's own.
   */
  readonly endpoints?: Readonly<Partial<Record<AwsService, string>>>;
  /** Attempts per call, the first included, under the SDK's adaptive retry mode. Default 8. */
  readonly maxAttempts?: number;
  /** Bucket in the path instead of the hostname, for S3-compatible endpoints. Default false. */
  readonly s3ForcePathStyle?: boolean;
  /**
   * How long one attempt's socket may stay silent before the attempt fails (a retryable
   * timeout). Default 60 s: an upload sending a large part is never silent that long.
   */
  readonly requestTimeoutMs?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Failures reach callers as `AppError`s; left to itself the SDK would also print warnings to
 * the console, outside the service's JSON logs.
 */
const SILENT_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

/** The configuration shared by every SDK client: region, credentials, retry, endpoint. */
export interface SdkClientConfig {
  region: string;
  credentials?: AwsCredentials;
  retryMode: "adaptive";
  maxAttempts: number;
  endpoint?: string;
  requestHandler: { socketTimeout: number; connectionTimeout: number };
  logger: typeof SILENT_LOGGER;
}

/** Without credentials, the SDK resolves its standard chain (environment, profile, IMDS, …). */
export function sdkClientConfig(
  service: AwsService,
  region: string,
  credentials: AwsCredentials | undefined,
  options: AwsClientOptions = {},
): SdkClientConfig {
  const endpoint = options.endpoints?.[service];
  return {
    region,
    ...(credentials ? { credentials } : {}),
    retryMode: "adaptive",
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    ...(endpoint ? { endpoint } : {}),
    // `socketTimeout`, not `requestTimeout`: the SDK's request timeout only logs a warning (unless
    // `throwOnRequestTimeout`), so a stalled S3 or STS held an attempt, and its job, for ever.
    requestHandler: {
      socketTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
    },
    logger: SILENT_LOGGER,
  };
}
