import type { ValidationIssue } from "@sightline/domain";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ErrorCode =
  | "INVALID_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL";

/** The one table from error code to HTTP status. */
export const STATUS_OF_CODE: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
};

/** An expected failure whose message is safe to show the caller. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): ContentfulStatusCode {
    return STATUS_OF_CODE[this.code];
  }
}

/** A 400 whose top-level message summarises the first issue. */
export function invalidInput(where: string, issues: ValidationIssue[]): AppError {
  const first = issues[0];
  const summary = first ? `: ${first.path} ${first.message}` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new AppError("INVALID_INPUT", `Invalid ${where}${summary}${more}`, issues);
}
