import { createHash } from "node:crypto";
import { access, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { writeReport } from "../src/index.ts";
import { readParquet } from "./read-parquet.ts";
import { samplePrincipalAccessRows } from "./sample-rows.ts";

const tempDir = () => mkdtemp(path.join(tmpdir(), "sightline-report-"));

describe("writeReport", () => {
  it("writes every format in one pass over a generator, with each file's size and SHA-256", async () => {
    const dir = await tempDir();
    let pulls = 0;
    function* rows() {
      for (const row of samplePrincipalAccessRows(3_000)) {
        pulls++;
        yield row;
      }
    }
    const report = await writeReport("principal-access-summaries", rows(), {
      formats: ["csv", "jsonl", "parquet"],
      dir,
      baseName: "pas",
    });
    expect(pulls).toBe(3_000);
    expect(report.rows).toBe(3_000);
    expect(report.files.map((f) => [f.format, path.basename(f.path), f.rows])).toEqual([
      ["csv", "pas.csv", 3_000],
      ["jsonl", "pas.jsonl", 3_000],
      ["parquet", "pas.parquet", 3_000],
    ]);
    for (const file of report.files) {
      const bytes = await readFile(file.path);
      expect(file.bytes).toBe(bytes.byteLength);
      expect(file.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    const [csv, jsonl, parquet] = report.files.map((file) => file.path);
    const csvRows = parse(await readFile(csv ?? "", "utf8"), { columns: true });
    const jsonRows = (await readFile(jsonl ?? "", "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const parquetRows = (await readParquet(parquet ?? "")).rows;
    const arns = (rows: readonly unknown[]) =>
      rows.map((row) => (row as Record<string, unknown>).principal_arn);
    const expected = arns([...samplePrincipalAccessRows(3_000)]);
    expect(arns(csvRows)).toEqual(expected);
    expect(arns(jsonRows)).toEqual(expected);
    expect(arns(parquetRows)).toEqual(expected);
  });

  it("takes async iterables, and names files after the report type by default", async () => {
    const dir = await tempDir();
    async function* rows() {
      yield* samplePrincipalAccessRows(10);
    }
    const report = await writeReport("principal-access-summaries", rows(), {
      formats: ["jsonl"],
      dir,
    });
    expect(report.files).toEqual([
      expect.objectContaining({
        path: path.join(dir, "principal-access-summaries.jsonl"),
        rows: 10,
      }),
    ]);
  });

  it("removes every partial file when the rows fail", async () => {
    const dir = await tempDir();
    function* failing() {
      yield* samplePrincipalAccessRows(2_000);
      throw new Error("collection broke");
    }
    await expect(
      writeReport("principal-access-summaries", failing(), {
        formats: ["csv", "jsonl", "parquet"],
        dir,
      }),
    ).rejects.toThrow("collection broke");
    for (const ext of ["csv", "jsonl", "parquet"]) {
      await expect(access(path.join(dir, `principal-access-summaries.${ext}`))).rejects.toThrow();
    }
  });
});
