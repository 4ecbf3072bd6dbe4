import { cellReader } from "../columns/cell-reader.ts";
import type { CellValue } from "../columns/column.ts";
import { HashingFile } from "./hashing-file.ts";
import { ByteBuffer } from "./parquet/byte-buffer.ts";
import { columnChunkBuilder } from "./parquet/column-chunks.ts";
import { PARQUET_MAGIC, ParquetFileEncoder } from "./parquet/parquet-file.ts";
import type { OpenRowWriter } from "./row-writer.ts";

/**
 * Large enough for efficient column chunks, small enough to hold in memory per report. The
 * writer holds a row group as one index (or byte) per cell and the dictionaries' values, which
 * are the rows' own strings: a 32,000-row group of the largest report is about 2 MiB.
 */
export const DEFAULT_ROW_GROUP_SIZE = 32_000;
/** Dictionary indices are bit-packed 24 bits at most (`writeRleHybrid`). */
const MAX_ROW_GROUP_SIZE = 1 << 24;

/**
 * Parquet written by Sightline's own encoder (`./parquet/`): each row's cells go straight into
 * their column's dictionary and index array, and every `rowGroupSize` rows become a row group
 * written to the file, so memory holds one row group at most. Report columns repeat a few values
 * on many rows, so every column but the booleans is dictionary-encoded. Column statistics are not
 * written: ARNs share prefixes longer than the 16 bytes statistics keep, so min/max could not
 * skip row groups. A general-purpose writer (hyparquet-writer) took 29 s of the largest account's
 * 96 s of CPU, gathering each cell as an object and encoding it again per row group.
 */
export const openParquetWriter: OpenRowWriter = (path, columns, options = {}) => {
  const rowGroupSize = options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE;
  if (!Number.isInteger(rowGroupSize) || rowGroupSize < 1 || rowGroupSize > MAX_ROW_GROUP_SIZE)
    throw new RangeError(`rowGroupSize must be a whole number from 1 to ${MAX_ROW_GROUP_SIZE}`);
  const file = new HashingFile(path, options.files);
  const encoder = new ParquetFileEncoder(columns, "@sightline/reports");
  const json = options.jsonTexts ?? JSON.stringify;
  const builders = columns.map((column) => columnChunkBuilder(column, rowGroupSize, json));
  const read = cellReader(columns);
  const cells: (CellValue | undefined)[] = columns.map(() => undefined);
  const out = new ByteBuffer(1 << 20);
  out.bytes(PARQUET_MAGIC);
  let buffered = 0;
  let rows = 0;
  /** Sends the buffered bytes to the file (a copy: the stream may hold it while `out` refills). */
  const flush = () => {
    const chunk = out.view().slice();
    out.clear();
    return file.write(chunk);
  };
  const writeRowGroup = () => {
    encoder.rowGroup(out, builders, buffered);
    buffered = 0;
    return flush();
  };
  return {
    write(row) {
      read(row, cells);
      for (let i = 0; i < builders.length; i++)
        (builders[i] as (typeof builders)[number]).add(cells[i]);
      buffered++;
      rows++;
      return buffered >= rowGroupSize ? writeRowGroup() : undefined;
    },
    async finish() {
      if (buffered > 0) await writeRowGroup();
      encoder.footer(out);
      await flush();
      return file.close(rows);
    },
    abort: () => file.abort(),
  };
};
