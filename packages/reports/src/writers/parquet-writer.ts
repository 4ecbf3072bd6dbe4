import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { CellValue, ColumnType } from "../columns/column.ts";
import { HashingFile } from "./hashing-file.ts";
import type { OpenRowWriter } from "./row-writer.ts";

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]["schema"][number];

const PARQUET_TYPES: Readonly<Record<ColumnType, Omit<SchemaElement, "name">>> = {
  string: { type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
  boolean: { type: "BOOLEAN", repetition_type: "REQUIRED" },
  timestamp: {
    type: "INT64",
    converted_type: "TIMESTAMP_MILLIS",
    logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
    repetition_type: "OPTIONAL",
  },
  integer: { type: "INT64", repetition_type: "REQUIRED" },
  json: { type: "BYTE_ARRAY", converted_type: "JSON", repetition_type: "REQUIRED" },
};

/**
 * Large enough for efficient column chunks, small enough to hold in memory per report. Each row
 * group's column arrays (and hyparquet-writer's copies of them) outlive the young generation, so
 * the heap grows with the row group: with 100,000 rows a large account's writing peaked at
 * 1.2–1.6 GiB of heap, with 32,000 at 0.7 GiB, and the files came out smaller (dictionaries pay
 * in more row groups).
 */
export const DEFAULT_ROW_GROUP_SIZE = 32_000;

/** Distinct strings whose UTF-8 bytes are remembered between rows. */
const BYTES_MEMO_LIMIT = 4_096;
/** Distinct JSON cells (tags, lists) remembered by their text, per column. */
const JSON_MEMO_LIMIT = 4_096;

/**
 * UTF-8 bytes of a string, shared by every row that repeats it: hyparquet-writer would encode
 * each occurrence (a principal's ARN on each of its thousand rows) and then deduplicate them.
 */
function createUtf8Bytes() {
  const encoder = new TextEncoder();
  const memo = new Map<string, Uint8Array>();
  return (text: string): Uint8Array => {
    let bytes = memo.get(text);
    if (bytes === undefined) {
      bytes = encoder.encode(text);
      if (memo.size >= BYTES_MEMO_LIMIT) memo.clear();
      memo.set(text, bytes);
    }
    return bytes;
  };
}

/**
 * One object per distinct JSON text: hyparquet-writer converts and encodes each JSON cell once
 * per object it meets in a row group, and the rows carry a new `granted_by` array per summary,
 * most of them with the same text as the row before.
 */
function createJsonCell() {
  const memo = new Map<string, CellValue>();
  let last: CellValue | undefined;
  let lastCanonical: CellValue | undefined;
  return (value: CellValue): CellValue => {
    if (value === last) return lastCanonical;
    const text = JSON.stringify(value);
    let canonical = memo.get(text);
    if (canonical === undefined) {
      canonical = value;
      if (memo.size >= JSON_MEMO_LIMIT) memo.clear();
      memo.set(text, canonical);
    }
    last = value;
    lastCanonical = canonical;
    return canonical;
  };
}

/** Sends each encoded row group to the file and reuses its buffer for the next one. */
class FileByteWriter extends ByteWriter {
  constructor(readonly file: HashingFile) {
    super(1 << 20);
  }

  flush(): Promise<void> | undefined {
    // A copy: the stream may still hold the chunk when the next row group reuses the buffer.
    const chunk = this.getBytes().slice();
    this.index = 0;
    return this.file.write(chunk);
  }

  override finish(): Promise<void> | undefined {
    return this.flush();
  }
}

/**
 * Parquet through hyparquet-writer: rows are gathered into columns, and every `rowGroupSize`
 * rows become a row group written to the file, so memory holds one row group at most. Column
 * statistics are off: ARNs share prefixes longer than the 16 bytes statistics keep, so min/max
 * could not skip row groups, and computing them costs a quarter of the writing time.
 */
export const openParquetWriter: OpenRowWriter = (path, columns, options = {}) => {
  const rowGroupSize = options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE;
  const file = new HashingFile(path);
  const bytes = new FileByteWriter(file);
  const parquet = new ParquetWriter({
    writer: bytes,
    schema: [
      { name: "root", num_children: columns.length },
      ...columns.map((column) => ({ name: column.name, ...PARQUET_TYPES[column.type] })),
    ],
    statistics: false,
    createdBy: "@sightline/reports",
  });
  const utf8 = createUtf8Bytes();
  const jsonCells = columns.map((column) =>
    column.type === "json" ? createJsonCell() : undefined,
  );
  const emptyColumns = () =>
    columns.map((column, i) => ({
      name: column.name,
      json: jsonCells[i],
      data: [] as (Exclude<CellValue, string | number> | Uint8Array | bigint)[],
    }));
  let columnData = emptyColumns();
  let buffered = 0;
  let rows = 0;
  const writeRowGroup = () => {
    const rowGroup = columnData;
    columnData = emptyColumns();
    buffered = 0;
    // Each row group ends with a flush, so the write is pending exactly when the file is full.
    return parquet.write({ columnData: rowGroup, rowGroupSize }) ?? undefined;
  };
  return {
    write(row) {
      for (const column of columnData) {
        const value = row[column.name];
        column.data.push(
          typeof value === "string"
            ? utf8(value)
            : typeof value === "number"
              ? BigInt(value)
              : column.json && value !== undefined
                ? (column.json(value) as typeof value)
                : value,
        );
      }
      buffered++;
      rows++;
      return buffered >= rowGroupSize ? writeRowGroup() : undefined;
    },
    async finish() {
      if (buffered > 0) await writeRowGroup();
      await parquet.finish();
      return file.close(rows);
    },
    abort: () => file.abort(),
  };
};
