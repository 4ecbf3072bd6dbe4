import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { column } from "../src/columns/column.ts";
import { type AnyReportRow, openParquetWriter, type ReportColumn } from "../src/index.ts";
import { readParquet } from "./read-parquet.ts";
import { seededRandom } from "./seeded-random.ts";

/**
 * Sightline's own Parquet encoder, read back by two readers written apart from it: hyparquet
 * (JavaScript) and DuckDB (C++, the engine analysts query the hive layout with). The rows are
 * built to reach every branch of the encoding: runs and bit-packed groups of dictionary indices,
 * indices wider than a byte, nulls among timestamps, multi-byte and long text, and row groups
 * that end mid-run.
 */

const COLUMNS = [
  column("time", "timestamp"),
  column("name", "string"),
  column("flag", "boolean"),
  column("count", "integer"),
  column("doc", "json"),
  column("unique_name", "string"),
] as const satisfies readonly ReportColumn[];

const TEXTS = ["", "plain", "ünïcödé ✓", "emoji 🙂 pair", "x".repeat(70_000), "tab\tand\nline"];
const TIMES = [new Date("2026-03-04T07:15:36.947Z"), new Date(-86_400_000), new Date(0)];
const INTEGERS = [0, -1, 2004, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
const SHARED_DOC = { policies: ["a", "b"], nested: { "k:ey": 'v "q"' } };
/** Policy objects that new lists share, as the engine's lists of granting policies do. */
const POLICY_A = { policyType: "inline", policyName: "a", sids: ["Read"] };
const POLICY_B = { policyType: "managed", policyArn: "arn:aws:iam::aws:policy/B", sids: [] };

/** Rows whose values come in runs of random length (1–40), so that runs and packed groups mix. */
function rows(count: number, seed: number): AnyReportRow[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const out: AnyReportRow[] = [];
  let run = 0;
  let current: AnyReportRow = {};
  for (let i = 0; i < count; i++) {
    if (run-- <= 0) {
      run = Math.floor(next() * 40);
      current = {
        time: next() < 0.3 ? undefined : pick(TIMES),
        name: pick(TEXTS),
        count: pick(INTEGERS),
        // The same text in a new object, the same object, records and texts that differ, and
        // new lists of shared objects (also one of equal text but its own object).
        doc: pick([
          SHARED_DOC,
          { ...SHARED_DOC },
          {},
          { Confidentiality: `c-${i % 3}` },
          [`p-${i % 97}`],
          [POLICY_A, POLICY_B],
          [POLICY_B, POLICY_A],
          [POLICY_A],
          [POLICY_B],
          [{ ...POLICY_A }, POLICY_B],
          [],
        ]),
      };
    }
    out.push({
      ...current,
      flag: next() < 0.5,
      unique_name: `arn:aws:iam::111122223333:role/r-${i}`,
    });
  }
  return out;
}

async function write(rowsToWrite: readonly AnyReportRow[], rowGroupSize?: number) {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-parquet-encoding-"));
  const writer = openParquetWriter(path.join(dir, "table.parquet"), COLUMNS, { rowGroupSize });
  for (const row of rowsToWrite) await writer.write(row);
  return writer.finish();
}

/** The rows as hyparquet gives them back: null for an absent time, INT64 as bigint, JSON parsed. */
const asRead = (row: AnyReportRow) => ({
  ...row,
  time: row.time ?? null,
  count: BigInt(row.count as number),
});

async function readWithDuckDb(file: string) {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const query = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS();
    const source = `read_parquet('${file.replaceAll("'", "''")}')`;
    return {
      rows: await query(
        `SELECT epoch_ms(time) AS time, name, flag, count, doc::VARCHAR AS doc, unique_name FROM ${source}`,
      ),
      types: await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${source})`),
      chunks: await query(
        `SELECT row_group_id, path_in_schema, compression, encodings FROM parquet_metadata('${file}')`,
      ),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("Sightline's Parquet encoding", () => {
  for (const [label, count, rowGroupSize] of [
    ["one row group of 100,000 rows (indices 17 bits wide)", 100_000, 200_000],
    ["row groups of 7 rows, the last one short", 1_000, 7],
    ["row groups of one row", 50, 1],
  ] as const) {
    it(`reads back equal with hyparquet: ${label}`, async () => {
      const written = rows(count, count + rowGroupSize);
      const file = await write(written, rowGroupSize);
      const { metadata, rows: read } = await readParquet(file.path);
      expect(metadata.row_groups).toHaveLength(Math.ceil(count / rowGroupSize));
      expect(read).toEqual(written.map(asRead));
    });
  }

  it("reads back equal with DuckDB, typed as the reports declare, dictionary-encoded", async () => {
    const written = rows(40_000, 7);
    const file = await write(written, 16_000);
    const duck = await readWithDuckDb(file.path);
    expect(duck.rows).toEqual(
      written.map((row) => ({
        time: row.time === undefined ? null : BigInt((row.time as Date).getTime()),
        name: row.name,
        flag: row.flag,
        count: BigInt(row.count as number),
        doc: JSON.stringify(row.doc),
        unique_name: row.unique_name,
      })),
    );
    expect(Object.fromEntries(duck.types.map((t) => [t.column_name, t.column_type]))).toEqual({
      time: "TIMESTAMP WITH TIME ZONE",
      name: "VARCHAR",
      flag: "BOOLEAN",
      count: "BIGINT",
      doc: "JSON",
      unique_name: "VARCHAR",
    });
    expect(new Set(duck.chunks.map((chunk) => chunk.row_group_id))).toEqual(new Set([0n, 1n, 2n]));
    for (const chunk of duck.chunks) {
      expect(chunk.compression).toBe("SNAPPY");
      expect(String(chunk.encodings)).toContain(
        chunk.path_in_schema === "flag" ? "PLAIN" : "RLE_DICTIONARY",
      );
    }
  });

  it("refuses a cell of the wrong type, naming the column", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-parquet-encoding-"));
    const writer = openParquetWriter(path.join(dir, "bad.parquet"), COLUMNS);
    const good = rows(1, 1)[0] as AnyReportRow;
    expect(() => writer.write({ ...good, count: 1.5 })).toThrow(/count \(integer\).*number/);
    expect(() => writer.write({ ...good, name: undefined as never })).toThrow(
      /name \(string\) cannot hold a undefined/,
    );
    expect(() => writer.write({ ...good, time: new Date(Number.NaN) })).toThrow(
      /time \(timestamp\)/,
    );
    await writer.abort();
  });

  it("refuses a row group size it cannot encode", () => {
    for (const rowGroupSize of [0, 1.5, 2 ** 24 + 1])
      expect(() => openParquetWriter("/nonexistent/x.parquet", COLUMNS, { rowGroupSize })).toThrow(
        /rowGroupSize must be a whole number from 1/,
      );
  });
});
