import pino from "pino";
import { describeError } from "./describe-error.ts";

export type Logger = pino.Logger;
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface LoggerOptions {
  level?: LogLevel;
  /** Fields on every line, e.g. `{ service: "sightline-api" }`. */
  bindings?: Record<string, unknown>;
  /** Receives each JSON line instead of stdout (tests). */
  write?: (line: string) => void;
}

/**
 * Field names that carry secrets. Callers never pass them, but a redaction list makes a slip
 * harmless: the value becomes "[redacted]" at the top level and one level down.
 */
const SECRET_FIELDS = [
  "authorization",
  "key",
  "apiKey",
  "adminKey",
  "password",
  "externalId",
  "accessKey",
  "secretKey",
  "sessionToken",
  "secretAccessKey",
  "auditorAuthCredential",
  "auditorAuthConfig",
  "plaintext",
  "clientSecret",
  "appSecret",
  "accessToken",
  "token",
  "secret",
  "smtpUrl",
  "signature",
];

/**
 * JSON lines with an ISO time, a textual level and `msg`. Errors go under `err` and are reduced
 * to what `describeError` allows: never a query's parameters.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: options.bindings ?? {},
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: describeError },
      redact: {
        paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((field) => `*.${field}`)],
        censor: "[redacted]",
      },
    },
    options.write ? { write: (line: string) => options.write?.(line.trimEnd()) } : undefined,
  );
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger({ level: "silent" });
