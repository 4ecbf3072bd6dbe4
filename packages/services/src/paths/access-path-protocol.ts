import { AppError, type ErrorCode, type ResourceAccessPathsRequest } from "@sightline/domain";

/** What the calling thread sends the access-path worker. */
export type ToWorker =
  | { type: "paths"; id: number; key: string; request: ResourceAccessPathsRequest }
  /** The snapshots a `snapshots` message asked for, or why they could not be read. */
  | { type: "snapshots"; id: number; data?: Uint8Array[]; error?: SentError };

/** What the worker answers. */
export type FromWorker =
  /** No graph of the request's key is held: send its snapshots. */
  | { type: "snapshots"; id: number }
  | { type: "answer"; id: number; answer: unknown }
  | { type: "failed"; id: number; error: SentError };

/** An error as it crosses threads: an AppError keeps its code, issues and details. */
export interface SentError {
  name: string;
  message: string;
  code?: ErrorCode;
  issues?: AppError["issues"];
  details?: AppError["details"];
  retryable?: boolean;
}

export function sendError(error: unknown): SentError {
  if (error instanceof AppError)
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      issues: error.issues,
      details: error.details,
      retryable: error.retryable,
    };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

export function receiveError(sent: SentError): Error {
  if (sent.code)
    return new AppError(sent.code, sent.message, {
      ...(sent.issues ? { issues: sent.issues } : {}),
      ...(sent.details ? { details: sent.details } : {}),
      ...(sent.retryable !== undefined ? { retryable: sent.retryable } : {}),
    });
  const error = sent.name === "RangeError" ? new RangeError(sent.message) : new Error(sent.message);
  error.name = sent.name;
  return error;
}
