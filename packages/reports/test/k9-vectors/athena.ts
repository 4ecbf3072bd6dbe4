import { K9_COLUMNS, type K9ReportType } from "./k9-format.ts";

/**
 * k9's hive layout for Athena, from k9's AWS Athena integration page (`sources.ts`
 * `athenaDocs`), which has been published in two versions:
 *
 * - CSV: `s3://<secure_inbox_bucket_name>/hive/customer_id=<customer_id>/csp=<csp_name>/account_id=<account_id>/file_type=<file_type>/<fully_qualified_file_type>.latest.csv`,
 *   `file_type` one of `csv_principals`, `csv_pas`, `csv_resources`, `csv_ras`; example
 *   `hive/customer_id=C10001/csp=aws/account_id=123456789012/file_type=csv_pas/principal-access-summaries.latest.csv`.
 * - Parquet: `s3://<secure_inbox_bucket_name>/hive/parquet/<file_type>/customer_id=<customer_id>/csp=<csp_name>/account_id=<account_id>/<fully_qualified_file_type>.latest.parquet`,
 *   `file_type` one of `ic` (Identity Center, not an AWS account report Sightline writes),
 *   `pas`, `principals`, `resources`, `ras`; example
 *   `/hive/parquet/pas/customer_id=C123456/csp=aws/account_id=123456789012/principal-access-summaries.latest.parquet`.
 *
 * `csp` is "currently only aws". Only the latest report is kept there (one file per partition,
 * replaced by each run). The page's table DDL was not retrievable; `docs/integrations.md` gives
 * ours, built on this key format and k9's columns.
 */

export const ATHENA_CSV_FILE_TYPES: Readonly<Record<K9ReportType, string>> = {
  principals: "csv_principals",
  resources: "csv_resources",
  "principal-access-summaries": "csv_pas",
  "resource-access-summaries": "csv_ras",
};

export const ATHENA_PARQUET_FILE_TYPES: Readonly<Record<K9ReportType, string>> = {
  principals: "principals",
  resources: "resources",
  "principal-access-summaries": "pas",
  "resource-access-summaries": "ras",
};

interface KeyParts {
  customerId: string;
  accountId: string;
  type: K9ReportType;
}

/** k9's CSV hive key of a report. */
export const athenaCsvKey = ({ customerId, accountId, type }: KeyParts): string =>
  `hive/customer_id=${customerId}/csp=aws/account_id=${accountId}/file_type=${ATHENA_CSV_FILE_TYPES[type]}/${type}.latest.csv`;

/** k9's Parquet hive key of a report. */
export const athenaParquetKey = ({ customerId, accountId, type }: KeyParts): string =>
  `hive/parquet/${ATHENA_PARQUET_FILE_TYPES[type]}/customer_id=${customerId}/csp=aws/account_id=${accountId}/${type}.latest.parquet`;

const SEGMENT = "[A-Za-z0-9][A-Za-z0-9._-]*";

export interface AthenaLocation {
  csv: { location: string; partitions: readonly string[]; key: RegExp };
  parquet: { location: string; partitions: readonly string[]; key: RegExp };
  columns: readonly string[];
}

function locationOf(type: K9ReportType): AthenaLocation {
  const csvType = ATHENA_CSV_FILE_TYPES[type];
  const parquetType = ATHENA_PARQUET_FILE_TYPES[type];
  return {
    csv: {
      location: "hive/",
      partitions: ["customer_id", "csp", "account_id", "file_type"],
      key: new RegExp(
        `^hive/customer_id=(?<customerId>${SEGMENT})/csp=(?<csp>aws)/account_id=(?<accountId>\\d{12})/file_type=(?<fileType>${csvType})/${type}\\.latest\\.csv$`,
      ),
    },
    parquet: {
      location: `hive/parquet/${parquetType}/`,
      partitions: ["customer_id", "csp", "account_id"],
      key: new RegExp(
        `^hive/parquet/${parquetType}/customer_id=(?<customerId>${SEGMENT})/csp=(?<csp>aws)/account_id=(?<accountId>\\d{12})/${type}\\.latest\\.parquet$`,
      ),
    },
    columns: K9_COLUMNS[type],
  };
}

/**
 * Each table's LOCATION (relative to the bucket), its partition columns in key order, and the
 * pattern every object under it must match: Athena reads every object below LOCATION in a
 * partition's folder, so anything else there is read as rows of the table.
 */
export const ATHENA_LOCATIONS: Readonly<Record<K9ReportType, AthenaLocation>> = {
  principals: locationOf("principals"),
  resources: locationOf("resources"),
  "principal-access-summaries": locationOf("principal-access-summaries"),
  "resource-access-summaries": locationOf("resource-access-summaries"),
};

/** Any key in k9's CSV hive tree (`hive/customer_id=…`), whatever the file type. */
export const ATHENA_CSV_TREE = /^hive\/customer_id=/;
/** Any key in k9's Parquet hive tree. */
export const ATHENA_PARQUET_TREE = /^hive\/parquet\//;
