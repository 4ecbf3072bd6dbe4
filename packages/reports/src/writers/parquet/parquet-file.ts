import type { ColumnType, ReportColumn } from "../../columns/column.ts";
import { ByteBuffer } from "./byte-buffer.ts";
import type { ColumnChunkBuilder } from "./column-chunks.ts";
import { snappyCompress } from "./snappy.ts";
import { ThriftWriter } from "./thrift-compact.ts";

/**
 * The Parquet format's structures that the reports use (parquet-format's `parquet.thrift`): a flat
 * schema of required and optional columns, row groups of one dictionary page (PLAIN) and one data
 * page (format v1: the most widely read) per column, each page compressed with Snappy, and the
 * footer. The codes below are the thrift enums' values.
 */

const PHYSICAL = { BOOLEAN: 0, INT64: 2, BYTE_ARRAY: 6 } as const;
const CONVERTED = { UTF8: 0, TIMESTAMP_MILLIS: 9, JSON: 19 } as const;
const REPETITION = { REQUIRED: 0, OPTIONAL: 1 } as const;
const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const;
const PAGE = { DATA_PAGE: 0, DICTIONARY_PAGE: 2 } as const;
const CODEC_SNAPPY = 1;
/** LogicalType's TIMESTAMP member, and TimeUnit's MILLIS. */
const LOGICAL_TIMESTAMP = 8;
const UNIT_MILLIS = 1;

interface ColumnSchema {
  physical: number;
  repetition: number;
  converted?: number;
  timestamp?: true;
}

/** How each column type is stored; the same types as the reports' earlier writer declared. */
const SCHEMA: Readonly<Record<ColumnType, ColumnSchema>> = {
  string: {
    physical: PHYSICAL.BYTE_ARRAY,
    repetition: REPETITION.REQUIRED,
    converted: CONVERTED.UTF8,
  },
  boolean: { physical: PHYSICAL.BOOLEAN, repetition: REPETITION.REQUIRED },
  timestamp: {
    physical: PHYSICAL.INT64,
    repetition: REPETITION.OPTIONAL,
    converted: CONVERTED.TIMESTAMP_MILLIS,
    timestamp: true,
  },
  integer: { physical: PHYSICAL.INT64, repetition: REPETITION.REQUIRED },
  json: {
    physical: PHYSICAL.BYTE_ARRAY,
    repetition: REPETITION.REQUIRED,
    converted: CONVERTED.JSON,
  },
};

interface ColumnChunkMeta {
  column: ReportColumn;
  encodings: number[];
  start: number;
  dictionaryPageOffset: number | undefined;
  dataPageOffset: number;
  uncompressed: number;
  compressed: number;
  values: number;
}

interface RowGroupMeta {
  chunks: ColumnChunkMeta[];
  rows: number;
  start: number;
  ordinal: number;
}

export const PARQUET_MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]); // "PAR1"

/** Builds a Parquet file's bytes: the row groups as they come, then the footer. */
export class ParquetFileEncoder {
  readonly #columns: readonly ReportColumn[];
  readonly #createdBy: string;
  readonly #rowGroups: RowGroupMeta[] = [];
  readonly #page = new ByteBuffer();
  readonly #header = new ByteBuffer(256);
  /** Bytes of the file before the output buffer: where the next row group starts. */
  #offset = PARQUET_MAGIC.length;

  constructor(columns: readonly ReportColumn[], createdBy: string) {
    this.#columns = columns;
    this.#createdBy = createdBy;
  }

  /** The row group of `rows` rows gathered in `builders`, appended to `out`. */
  rowGroup(out: ByteBuffer, builders: readonly ColumnChunkBuilder[], rows: number): void {
    const start = this.#offset;
    const chunks = builders.map((builder) => {
      const chunkStart = this.#offset;
      let uncompressed = 0;
      let compressed = 0;
      const page = (write: () => void, header: (size: number, stored: number) => void) => {
        this.#page.clear();
        write();
        const stored = snappyCompress(this.#page.view());
        this.#header.clear();
        header(this.#page.length, stored.length);
        out.bytes(this.#header.view());
        out.bytes(stored);
        uncompressed += this.#header.length + this.#page.length;
        compressed += this.#header.length + stored.length;
        this.#offset += this.#header.length + stored.length;
      };
      let dictionaryPageOffset: number | undefined;
      if (builder.dictionaryEncoded) {
        dictionaryPageOffset = this.#offset;
        let entries = 0;
        page(
          () => {
            entries = builder.dictionary(this.#page) ?? 0;
          },
          (size, stored) =>
            this.#pageHeader(PAGE.DICTIONARY_PAGE, size, stored, (thrift) =>
              thrift.struct(7, () => {
                thrift.i32(1, entries);
                thrift.i32(2, ENCODING.PLAIN);
              }),
            ),
        );
      }
      const dataPageOffset = this.#offset;
      const encoding = builder.dictionaryEncoded ? ENCODING.RLE_DICTIONARY : ENCODING.PLAIN;
      page(
        () => builder.data(this.#page),
        (size, stored) =>
          this.#pageHeader(PAGE.DATA_PAGE, size, stored, (thrift) =>
            thrift.struct(5, () => {
              thrift.i32(1, rows);
              thrift.i32(2, encoding);
              thrift.i32(3, ENCODING.RLE);
              thrift.i32(4, ENCODING.RLE);
            }),
          ),
      );
      builder.reset();
      return {
        column: builder.column,
        encodings: builder.dictionaryEncoded
          ? [ENCODING.PLAIN, ENCODING.RLE, ENCODING.RLE_DICTIONARY]
          : [ENCODING.PLAIN, ENCODING.RLE],
        start: chunkStart,
        dictionaryPageOffset,
        dataPageOffset,
        uncompressed,
        compressed,
        values: rows,
      };
    });
    this.#rowGroups.push({ chunks, rows, start, ordinal: this.#rowGroups.length });
  }

  #pageHeader(
    type: number,
    size: number,
    stored: number,
    body: (thrift: ThriftWriter) => void,
  ): void {
    const thrift = new ThriftWriter(this.#header);
    thrift.message(() => {
      thrift.i32(1, type);
      thrift.i32(2, size);
      thrift.i32(3, stored);
      body(thrift);
    });
  }

  /** The footer: the file's metadata, its length and the closing magic. */
  footer(out: ByteBuffer): void {
    const before = out.length;
    const thrift = new ThriftWriter(out);
    const rows = this.#rowGroups.reduce((sum, group) => sum + group.rows, 0);
    thrift.message(() => {
      thrift.i32(1, 2);
      thrift.structList(2, [undefined, ...this.#columns], (column) => {
        if (column === undefined) {
          thrift.string(4, "root");
          thrift.i32(5, this.#columns.length);
          return;
        }
        const schema = SCHEMA[column.type];
        thrift.i32(1, schema.physical);
        thrift.i32(3, schema.repetition);
        thrift.string(4, column.name);
        if (schema.converted !== undefined) thrift.i32(6, schema.converted);
        if (schema.timestamp)
          thrift.struct(10, () =>
            thrift.struct(LOGICAL_TIMESTAMP, () => {
              thrift.bool(1, true);
              thrift.struct(2, () => thrift.struct(UNIT_MILLIS, () => undefined));
            }),
          );
      });
      thrift.i64(3, rows);
      thrift.structList(4, this.#rowGroups, (group) => this.#rowGroupMeta(thrift, group));
      thrift.string(6, this.#createdBy);
    });
    out.u32(out.length - before);
    out.bytes(PARQUET_MAGIC);
  }

  #rowGroupMeta(thrift: ThriftWriter, group: RowGroupMeta): void {
    thrift.structList(1, group.chunks, (chunk) => {
      thrift.i64(2, chunk.start);
      thrift.struct(3, () => {
        thrift.i32(1, SCHEMA[chunk.column.type].physical);
        thrift.i32List(2, chunk.encodings);
        thrift.stringList(3, [chunk.column.name]);
        thrift.i32(4, CODEC_SNAPPY);
        thrift.i64(5, chunk.values);
        thrift.i64(6, chunk.uncompressed);
        thrift.i64(7, chunk.compressed);
        thrift.i64(9, chunk.dataPageOffset);
        if (chunk.dictionaryPageOffset !== undefined) thrift.i64(11, chunk.dictionaryPageOffset);
      });
    });
    thrift.i64(
      2,
      sum(group.chunks, (chunk) => chunk.uncompressed),
    );
    thrift.i64(3, group.rows);
    thrift.i64(5, group.start);
    thrift.i64(
      6,
      sum(group.chunks, (chunk) => chunk.compressed),
    );
    thrift.i16(7, group.ordinal);
  }
}

const sum = <T>(items: readonly T[], of: (item: T) => number) =>
  items.reduce((total, item) => total + of(item), 0);
