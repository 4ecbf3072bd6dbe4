import type { FakeService } from "./fake-request.ts";

/** An AWS error answer; each service's protocol renders it. */
export class FakeAwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Faults that make a call fail with the service's own error. */
export type ErrorFaultKind = "throttle" | "access-denied" | "expired-token" | "server-error";
/**
 * Faults that let an S3 write succeed but alter it, as a careless S3-compatible store would:
 * `corrupt-body` keeps other bytes than were sent (unverified) and reports their checksum,
 * `no-checksum` keeps the bytes but reports no checksum at all. `failed-findings` lets a
 * Security Hub `BatchImportFindings` answer 200 but refuse every finding of the batch
 * (`FailedCount`), as it does for findings it cannot take.
 */
export type AlterationKind = "corrupt-body" | "no-checksum" | "failed-findings";
/**
 * `delay`: the call is answered only after `delayMs` (a slow S3 part, a stalled STS), as if its
 * bytes were still arriving; a caller that hangs up meanwhile leaves nothing behind.
 */
export type DelayKind = "delay";
export type FaultKind = ErrorFaultKind | AlterationKind | DelayKind;
type ErrorKind = ErrorFaultKind | "invalid-credentials";

/** The code and status each service really uses for each kind of error. */
const ERRORS: Record<FakeService, Record<ErrorKind, readonly [string, number]>> = {
  sts: {
    throttle: ["Throttling", 400],
    "access-denied": ["AccessDenied", 403],
    "expired-token": ["ExpiredToken", 400],
    "server-error": ["ServiceUnavailable", 503],
    "invalid-credentials": ["InvalidClientTokenId", 403],
  },
  iam: {
    throttle: ["Throttling", 400],
    "access-denied": ["AccessDenied", 403],
    "expired-token": ["ExpiredToken", 400],
    "server-error": ["ServiceFailure", 500],
    "invalid-credentials": ["InvalidClientTokenId", 403],
  },
  kms: {
    throttle: ["ThrottlingException", 400],
    "access-denied": ["AccessDeniedException", 400],
    "expired-token": ["ExpiredTokenException", 400],
    "server-error": ["KMSInternalException", 500],
    "invalid-credentials": ["UnrecognizedClientException", 400],
  },
  organizations: {
    throttle: ["TooManyRequestsException", 400],
    "access-denied": ["AccessDeniedException", 400],
    "expired-token": ["ExpiredTokenException", 400],
    "server-error": ["ServiceException", 500],
    "invalid-credentials": ["UnrecognizedClientException", 400],
  },
  s3: {
    throttle: ["SlowDown", 503],
    "access-denied": ["AccessDenied", 403],
    "expired-token": ["ExpiredToken", 400],
    "server-error": ["InternalError", 500],
    "invalid-credentials": ["InvalidAccessKeyId", 403],
  },
  securityhub: {
    throttle: ["TooManyRequestsException", 429],
    "access-denied": ["AccessDeniedException", 403],
    "expired-token": ["ExpiredTokenException", 403],
    "server-error": ["InternalException", 500],
    "invalid-credentials": ["UnrecognizedClientException", 403],
  },
  sqs: {
    throttle: ["RequestThrottled", 403],
    "access-denied": ["AccessDenied", 403],
    "expired-token": ["ExpiredToken", 403],
    "server-error": ["InternalError", 500],
    "invalid-credentials": ["InvalidClientTokenId", 403],
  },
  ec2: {
    throttle: ["RequestLimitExceeded", 503],
    "access-denied": ["UnauthorizedOperation", 403],
    "expired-token": ["RequestExpired", 400],
    "server-error": ["InternalError", 500],
    "invalid-credentials": ["AuthFailure", 401],
  },
};

const MESSAGES: Record<ErrorKind, string> = {
  throttle: "Rate exceeded",
  "access-denied": "is not authorized to perform this operation",
  "expired-token": "The security token included in the request is expired",
  "server-error": "We encountered an internal error. Please try again.",
  "invalid-credentials": "The security token included in the request is invalid.",
};

export function serviceError(service: FakeService, kind: ErrorKind, detail?: string): FakeAwsError {
  const [code, status] = ERRORS[service][kind];
  return new FakeAwsError(code, detail ?? MESSAGES[kind], status);
}
