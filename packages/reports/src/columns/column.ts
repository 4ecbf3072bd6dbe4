/**
 * How a column's values are typed in every format:
 * - `string`: text, `""` when blank (CSV cell, JSON string, Parquet UTF8).
 * - `boolean`: `true`/`false` (CSV text, JSON boolean, Parquet BOOLEAN).
 * - `timestamp`: a `Date`, or `undefined` when unknown (CSV ISO-8601 UTC or blank, JSON string or
 *   null, Parquet INT64 TIMESTAMP(MILLIS, UTC) nullable).
 * - `integer`: a whole number (CSV decimal text, JSON number, Parquet INT64).
 * - `json`: an object or array, possibly of objects (CSV JSON text, JSON nested value, Parquet UTF8 annotated JSON).
 */
export type ColumnType = "string" | "boolean" | "timestamp" | "integer" | "json";

export interface ReportColumn {
  readonly name: string;
  readonly type: ColumnType;
}

export type JsonObject = Readonly<Record<string, string>>;
export type JsonArray = readonly string[];
/** A list of records, such as the policies that grant a row (`granted_by`), or one record. */
export type JsonRecords = readonly object[] | Readonly<Record<string, unknown>>;

interface CellValues {
  string: string;
  boolean: boolean;
  timestamp: Date | undefined;
  integer: number;
  json: JsonObject | JsonArray | JsonRecords;
}

export type CellValue = CellValues[ColumnType];

/** The row type a column list describes: one property per column, typed by the column's type. */
export type RowOf<Columns extends readonly ReportColumn[]> = {
  readonly [C in Columns[number] as C["name"]]: CellValues[C["type"]];
};

/** A row seen by the writers, which only know the column list. */
export type AnyReportRow = Readonly<Record<string, CellValue>>;

export const column = <const Name extends string, const Type extends ColumnType>(
  name: Name,
  type: Type,
): { readonly name: Name; readonly type: Type } => ({ name, type });
