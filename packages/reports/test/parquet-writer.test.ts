import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AnyReportRow,
  openParquetWriter,
  PRINCIPAL_ACCESS_COLUMNS,
  PRINCIPAL_COLUMNS,
  type ReportColumn,
} from "../src/index.ts";
import { readParquet } from "./read-parquet.ts";
import { placeholderRow, samplePrincipalAccessRows } from "./sample-rows.ts";

async function writeParquet(
  columns: readonly ReportColumn[],
  rows: Iterable<AnyReportRow>,
  rowGroupSize?: number,
) {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-parquet-"));
  const writer = openParquetWriter(path.join(dir, "report.parquet"), columns, { rowGroupSize });
  for (const row of rows) await writer.write(row);
  return writer.finish();
}

describe("openParquetWriter", () => {
  it("reads back as the same rows, in row groups of the given size", async () => {
    const rows = [...samplePrincipalAccessRows(2_500)];
    const written = await writeParquet(PRINCIPAL_ACCESS_COLUMNS, rows, 1_000);
    expect(written.rows).toBe(2_500);
    const { metadata, rows: read } = await readParquet(written.path);
    expect(metadata.row_groups.map((group) => group.num_rows)).toEqual([1000n, 1000n, 500n]);
    expect(read).toEqual(rows);
  });

  it("reads back JSON cells as written when rows repeat their text in new objects, and when they differ", async () => {
    // Each row its own arrays and tags, their texts repeating in runs and interleaved.
    const rows = [...samplePrincipalAccessRows(3_000)].map((row, i) => ({
      ...row,
      principal_tags: i % 7 === 0 ? { Team: `t${i % 3}` } : { ...row.principal_tags },
      granted_by: [`policy-${Math.floor(i / 50) % 4}`, ...(i % 11 === 0 ? [`extra-${i}`] : [])],
      except_resources: i % 5 === 0 ? [] : [`arn:aws:s3:::bucket-${i % 3}`],
      except_resources_this_scope_only:
        i % 4 === 0 ? [`/subscriptions/s/resourceGroups/rg-${i % 3}`] : [],
    }));
    const written = await writeParquet(PRINCIPAL_ACCESS_COLUMNS, rows, 700);
    const { rows: read } = await readParquet(written.path);
    expect(read).toEqual(rows);
  });

  it("types columns as strings, booleans, UTC timestamps and JSON", async () => {
    const written = await writeParquet(PRINCIPAL_COLUMNS, [placeholderRow(PRINCIPAL_COLUMNS)]);
    const { metadata, rows } = await readParquet(written.path);
    const schema = new Map(metadata.schema.map((element) => [element.name, element]));
    expect(schema.get("principal_name")).toMatchObject({
      type: "BYTE_ARRAY",
      converted_type: "UTF8",
      repetition_type: "REQUIRED",
    });
    expect(schema.get("principal_is_iam_admin")).toMatchObject({ type: "BOOLEAN" });
    expect(schema.get("principal_last_used")).toMatchObject({
      type: "INT64",
      repetition_type: "OPTIONAL",
      logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
    });
    expect(schema.get("principal_tags")).toMatchObject({
      type: "BYTE_ARRAY",
      converted_type: "JSON",
    });
    expect(rows[0]).toMatchObject({
      analysis_time: null,
      principal_is_iam_admin: false,
      principal_tags: {},
    });
  });

  it("writes a readable file with no rows", async () => {
    const written = await writeParquet(PRINCIPAL_COLUMNS, []);
    const { metadata, rows } = await readParquet(written.path);
    expect(metadata.num_rows).toBe(0n);
    expect(rows).toEqual([]);
    expect(metadata.schema.slice(1).map((element) => element.name)).toEqual(
      PRINCIPAL_COLUMNS.map((c) => c.name),
    );
  });
});
