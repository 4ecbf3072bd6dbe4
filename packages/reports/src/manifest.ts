import { z } from "zod";
import { REPORT_TYPES } from "./columns/report-columns.ts";
import { AUDIT_WORKBOOK_TYPE, type DeliveryTarget, type PlannedObject } from "./keys.ts";
import { REPORT_FORMATS, type WrittenReport } from "./writers/write-report.ts";

const Count = z.number().int().nonnegative();

export const ManifestObject = z.object({
  key: z.string().min(1),
  bytes: Count,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  reportType: z.enum([...REPORT_TYPES, AUDIT_WORKBOOK_TYPE]),
  format: z.enum([...REPORT_FORMATS, "xlsx"]),
  rows: Count,
});
export type ManifestObject = z.infer<typeof ManifestObject>;

/** Something the run could not see or do, e.g. a bucket policy it was denied. */
export const ManifestWarning = z.object({
  code: z.string().min(1),
  message: z.string().min(1),
  resourceArn: z.string().min(1).optional(),
});
export type ManifestWarning = z.infer<typeof ManifestWarning>;

/**
 * `manifest.json`, written after every object it lists: a consumer that sees it can fetch a
 * complete set and check each object's size and SHA-256.
 */
export const Manifest = z.object({
  manifestVersion: z.literal(1),
  executionId: z.string().min(1),
  /** `aws` or `azure`: the cloud family of the account (an Azure subscription ID as accountId). */
  provider: z.enum(["aws", "azure"]),
  customerId: z.string().min(1),
  accountId: z.string().min(1),
  analysisTime: z.iso.datetime(),
  reports: z.array(z.object({ type: z.enum(REPORT_TYPES), rows: Count })),
  objects: z.array(ManifestObject),
  warnings: z.array(ManifestWarning),
});
export type Manifest = z.infer<typeof Manifest>;

export interface ManifestInput {
  executionId: string;
  target: DeliveryTarget;
  reports: readonly WrittenReport[];
  /** What was uploaded, as `planReportObjects` planned it. */
  objects: readonly PlannedObject[];
  warnings: readonly ManifestWarning[];
}

export function buildManifest(input: ManifestInput): Manifest {
  return {
    manifestVersion: 1,
    executionId: input.executionId,
    provider: input.target.provider,
    customerId: input.target.customerId,
    accountId: input.target.accountId,
    analysisTime: input.target.analysisTime.toISOString(),
    reports: input.reports.map(({ type, rows }) => ({ type, rows })),
    objects: input.objects.map(({ key, type, file }) => ({
      key,
      bytes: file.bytes,
      sha256: file.sha256,
      reportType: type,
      format: file.format,
      rows: file.rows,
    })),
    warnings: [...input.warnings],
  };
}
