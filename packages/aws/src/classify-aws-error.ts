/** What went wrong with an AWS call, in the terms Sightline decides on. */
export type AwsFailureKind =
  | "throttled"
  | "expired"
  | "invalid-credentials"
  | "denied"
  | "not-found"
  | "unavailable"
  | "rejected";

export interface AwsFailure {
  readonly kind: AwsFailureKind;
  /** AWS's error code, e.g. `AccessDenied`, or the network error's code. */
  readonly code: string;
  /** AWS's message. AWS never echoes secrets in it; it often names the denied principal. */
  readonly message: string;
  /** The HTTP status: present when AWS answered, absent for network and client-side errors. */
  readonly status?: number;
}

const KIND_BY_CODE: Readonly<Record<string, AwsFailureKind>> = {
  Throttling: "throttled",
  ThrottlingException: "throttled",
  TooManyRequestsException: "throttled",
  RequestLimitExceeded: "throttled",
  RequestThrottled: "throttled",
  RequestThrottledException: "throttled",
  SlowDown: "throttled",
  ExpiredToken: "expired",
  ExpiredTokenException: "expired",
  TokenRefreshRequired: "expired",
  RequestExpired: "expired",
  InvalidClientTokenId: "invalid-credentials",
  UnrecognizedClientException: "invalid-credentials",
  InvalidAccessKeyId: "invalid-credentials",
  InvalidToken: "invalid-credentials",
  SignatureDoesNotMatch: "invalid-credentials",
  IncompleteSignature: "invalid-credentials",
  InvalidSignatureException: "invalid-credentials",
  AuthFailure: "invalid-credentials",
  AccessDenied: "denied",
  AccessDeniedException: "denied",
  UnauthorizedOperation: "denied",
  AllAccessDisabled: "denied",
  AuthorizationError: "denied",
  NoSuchEntity: "not-found",
  NoSuchEntityException: "not-found",
  NoSuchBucket: "not-found",
  NotFoundException: "not-found",
  NotFound: "not-found",
  TimeoutError: "unavailable",
  RequestTimeout: "unavailable",
};

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

const MAX_MESSAGE_LENGTH = 300;

/** Classifies an error thrown by an SDK call (after the SDK's own retries). */
export function classifyAwsError(error: unknown): AwsFailure {
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const name = typeof fields.name === "string" ? fields.name : "Error";
  const networkCode = typeof fields.code === "string" ? fields.code : undefined;
  const rawMessage = typeof fields.message === "string" ? fields.message : String(error);
  const message = rawMessage.slice(0, MAX_MESSAGE_LENGTH);
  const status = fields.$metadata?.httpStatusCode;
  const answered = status === undefined ? {} : { status };
  const known = KIND_BY_CODE[name];
  if (known) return { kind: known, code: name, message, ...answered };
  if (networkCode && NETWORK_CODES.has(networkCode)) {
    return { kind: "unavailable", code: networkCode, message };
  }
  if (status === 429) return { kind: "throttled", code: name, message, ...answered };
  const kind = status !== undefined && status >= 500 ? "unavailable" : "rejected";
  return { kind, code: name, message, ...answered };
}
