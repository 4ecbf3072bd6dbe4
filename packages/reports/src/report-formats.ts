/** The formats a report can be written in; each is also the file's extension. */
export const REPORT_FORMATS = ["csv", "jsonl", "parquet"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
