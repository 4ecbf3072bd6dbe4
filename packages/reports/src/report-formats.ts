/** The formats a report can be written in; each is also the file's extension. */
export const REPORT_FORMATS = ["csv", "jsonl", "parquet"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * The formats of Sightline's full rows (every column, and the access paths report): those of
 * `formats` other than CSV, whose AWS files are k9's; Parquet when `formats` names none.
 */
export function fullRowFormats(formats: readonly ReportFormat[]): ReportFormat[] {
  const full = formats.filter((format) => format !== "csv");
  return full.length > 0 ? [...new Set(full)] : ["parquet"];
}
