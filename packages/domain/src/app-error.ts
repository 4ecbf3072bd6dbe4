import type { ValidationIssue } from "./errors.ts";

/**
 * Every expected failure has a code. `status` is the HTTP status the API answers with;
 * `retryable` says whether a job that failed this way may succeed when run again (throttling,
 * an outage), or must fail at once with the reason (a denied role, a wrong external ID).
 */
export const ERROR_CODES = {
  INVALID_INPUT: { status: 400, retryable: false },
  UNAUTHENTICATED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  CONFLICT: { status: 409, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  /** Well-formed, but not something Sightline can do (yet), e.g. analyse an Azure subscription. */
  UNPROCESSABLE: { status: 422, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL: { status: 500, retryable: true },
  UNAVAILABLE: { status: 503, retryable: true },
  // Failures of an analysis job, reported in the execution (502: a cloud refused or failed).
  ASSUME_ROLE_DENIED: { status: 502, retryable: false },
  CREDENTIAL_EXPIRED: { status: 502, retryable: false },
  CREDENTIAL_INVALID: { status: 502, retryable: false },
  ACCESS_DENIED: { status: 502, retryable: false },
  CREDENTIAL_VENDING_FAILED: { status: 502, retryable: true },
  INBOX_DENIED: { status: 502, retryable: false },
  INBOX_NOT_FOUND: { status: 502, retryable: false },
  /** The owner has not proven it controls the inbox bucket (delivery verification). */
  INBOX_UNPROVEN: { status: 409, retryable: false },
  /** What the store kept is not what was sent (its checksum differs), or it confirmed none. */
  INBOX_INTEGRITY: { status: 502, retryable: true },
  THROTTLED: { status: 502, retryable: true },
  CLOUD_UNAVAILABLE: { status: 502, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]["status"];

export interface AppErrorOptions {
  issues?: ValidationIssue[];
  /** Response headers that belong to this error (`Allow`, `WWW-Authenticate`, `Retry-After`). */
  headers?: Record<string, string>;
  /** Overrides the code's default. */
  retryable?: boolean;
  cause?: unknown;
}

/** An expected failure whose message is safe to show the caller and to record in an execution. */
export class AppError extends Error {
  readonly issues: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.issues = options.issues;
    this.headers = options.headers;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
  }

  get status(): ErrorStatus {
    return ERROR_CODES[this.code].status;
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
