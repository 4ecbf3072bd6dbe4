import { z } from "zod";
import { AccountId, CustomerId, MappedCustomerId } from "./identifiers.ts";

/** `event`: a step applying an account's CloudTrail events (the event-driven analysis). */
export const ExecutionKind = z.enum(["ondemand", "daily", "event"]);
export type ExecutionKind = z.infer<typeof ExecutionKind>;

export const ExecutionStatus = z.enum(["queued", "running", "succeeded", "failed"]);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

/** `<kind>-<customerId>-<accountId>-<YYYY-MM-DD>_<4 of [A-Z0-9]>` (section 2.1). */
export const ExecutionId = z
  .string()
  .regex(
    /^(ondemand|daily|event)-(C\d{5,6}|P\d{6}-\d{12})-(\d{12}|[0-9a-fA-F-]{36})-\d{4}-\d\d-\d\d_[A-Z0-9]{4}$/,
    "must be an execution ID, e.g. ondemand-C12345-123456789012-2026-01-31_AB12",
  );
export type ExecutionId = z.infer<typeof ExecutionId>;

const SUFFIX_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A new execution ID; the UTC date of `startedAt` and four characters from `random` bytes. */
export function formatExecutionId(input: {
  kind: ExecutionKind;
  customerId: string;
  accountId: string;
  startedAt: Date;
  random: Uint8Array;
}): string {
  const date = input.startedAt.toISOString().slice(0, 10);
  const suffix = [...input.random.slice(0, 4)]
    .map((byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length])
    .join("");
  return `${input.kind}-${input.customerId}-${input.accountId}-${date}_${suffix}`;
}

/** What a running execution is doing (`GET /executions/{id}`). */
export const ExecutionStage = z.enum([
  "collecting",
  "analysing",
  "writing",
  "delivering",
  "storing",
  "alerting",
]);
export type ExecutionStage = z.infer<typeof ExecutionStage>;

/** Something an analysis could not see or apply; the run still succeeds. */
export const ExecutionWarning = z.object({
  code: z.string(),
  message: z.string(),
  resourceArn: z.string().optional(),
});
export type ExecutionWarning = z.infer<typeof ExecutionWarning>;

export const ExecutionFailure = z.object({ code: z.string(), message: z.string() });
export type ExecutionFailure = z.infer<typeof ExecutionFailure>;

/** `GET /executions/{executionId}` (an extension of the contract). */
export const ExecutionRecord = z
  .object({
    executionId: ExecutionId,
    kind: ExecutionKind,
    status: ExecutionStatus,
    customerId: z.union([CustomerId, MappedCustomerId]),
    accountId: AccountId,
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().optional(),
    finishedAt: z.iso.datetime().optional(),
    /** Keys of every delivered object, the manifest last. */
    reports: z.array(z.string()),
    warnings: z.array(ExecutionWarning),
    failure: ExecutionFailure.optional(),
    /** Extension: what a running attempt is doing, and how far, where countable. */
    stage: ExecutionStage.optional().describe(
      "While running: what the attempt is doing (absent once the execution has ended)",
    ),
    progress: z
      .object({
        done: z.number().int().nonnegative(),
        total: z.number().int().nonnegative(),
        unit: z
          .string()
          .describe(
            "`principals` (writing: principals whose access rows are made) or `bytes` (delivering: bytes of the report objects placed)",
          ),
      })
      .optional()
      .describe(
        "While running, where the stage is countable: how far it has got, written at most every few seconds (absent at the start of a stage)",
      ),
    /** Extension, `kind: "event"`: the CloudTrail event IDs this step applied. */
    events: z.array(z.string()).optional(),
    /** Extension: what the comparison with the account's previous analysis found. */
    changes: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "Access changes since the account's previous successful analysis (0 for its first)",
      ),
    findings: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("Findings that hold after this analysis"),
  })
  .meta({ id: "Execution" });
export type ExecutionRecord = z.infer<typeof ExecutionRecord>;

export const ExecutionList = z.array(ExecutionRecord);
export const ExecutionPath = z.object({ executionId: ExecutionId });
