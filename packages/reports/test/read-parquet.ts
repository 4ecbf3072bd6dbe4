import { readFile } from "node:fs/promises";
import { parquetMetadata, parquetReadObjects } from "hyparquet";

/** A Parquet file's metadata and rows, as hyparquet reads them. */
export async function readParquet(file: string) {
  const bytes = await readFile(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { metadata: parquetMetadata(buffer), rows: await parquetReadObjects({ file: buffer }) };
}
