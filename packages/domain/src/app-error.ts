import type { ValidationIssue } from "./errors.ts";

/**
 * Every expected failure has a code, and knows no transport: the API maps codes to HTTP
 * statuses and details to headers in one table (`apps/api/src/http-errors.ts`). `retryable`
 * says whether a job that failed this way may succeed when run again (throttling, an outage),
 * or must fail at once with the reason (a denied role, a wrong external ID).
 */
export const ERROR_CODES = {
  INVALID_INPUT: { retryable: false },
  UNAUTHENTICATED: { retryable: false },
  FORBIDDEN: { retryable: false },
  NOT_FOUND: { retryable: false },
  METHOD_NOT_ALLOWED: { retryable: false },
  CONFLICT: { retryable: false },
  PAYLOAD_TOO_LARGE: { retryable: false },
  /** Well-formed, but not something Sightline can do (yet), e.g. analyse an Azure subscription. */
  UNPROCESSABLE: { retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { retryable: false },
  RATE_LIMITED: { retryable: true },
  INTERNAL: { retryable: true },
  UNAVAILABLE: { retryable: true },
  // Failures of an analysis job, reported in the execution: a cloud refused or failed.
  ASSUME_ROLE_DENIED: { retryable: false },
  CREDENTIAL_EXPIRED: { retryable: false },
  CREDENTIAL_INVALID: { retryable: false },
  ACCESS_DENIED: { retryable: false },
  CREDENTIAL_VENDING_FAILED: { retryable: true },
  INBOX_DENIED: { retryable: false },
  INBOX_NOT_FOUND: { retryable: false },
  /** The owner has not proven it controls the inbox bucket (delivery verification). */
  INBOX_UNPROVEN: { retryable: false },
  /** What the store kept is not what was sent (its checksum differs), or it confirmed none. */
  INBOX_INTEGRITY: { retryable: true },
  THROTTLED: { retryable: true },
  CLOUD_UNAVAILABLE: { retryable: true },
  /**
   * The auditor role, made from an older template, refuses a read that only the incremental
   * collection makes: the caller falls back to a full collection and names the template.
   */
  INCREMENTAL_READ_DENIED: { retryable: false },
  /** The worker's disk (its work directory or the folder inbox) had no room left: may pass. */
  DISK_FULL: { retryable: true },
} as const satisfies Record<string, { retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What a caller may act on, typed; the API states each as a header. */
export interface ErrorDetails {
  /** Seconds before trying again makes sense (a limit, a cloud's throttling). */
  retryAfterSeconds?: number;
  /** The execution already analysing the account. */
  activeExecutionId?: string;
  /** The methods the path accepts. */
  allowedMethods?: readonly string[];
  /** Why the caller is not authenticated: no credentials, or credentials not valid. */
  credentials?: "missing" | "invalid";
}

export interface AppErrorOptions {
  issues?: ValidationIssue[];
  details?: ErrorDetails;
  /** Overrides the code's default. */
  retryable?: boolean;
  cause?: unknown;
}

/** An expected failure whose message is safe to show the caller and to record in an execution. */
export class AppError extends Error {
  readonly issues: ValidationIssue[] | undefined;
  readonly details: ErrorDetails;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.issues = options.issues;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A 400 whose top-level message summarises the first issue. */
export function invalidInput(where: string, issues: ValidationIssue[]): AppError {
  const first = issues[0];
  const summary = first ? `: ${first.path} ${first.message}` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new AppError("INVALID_INPUT", `Invalid ${where}${summary}${more}`, { issues });
}
