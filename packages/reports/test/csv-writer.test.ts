import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AnyReportRow,
  openCsvWriter,
  PRINCIPAL_ACCESS_COLUMNS,
  PRINCIPAL_COLUMNS,
  type ReportColumn,
} from "../src/index.ts";
import {
  AWKWARD_NAMES,
  csvShown,
  placeholderRow,
  samplePrincipalAccessRows,
} from "./sample-rows.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-csv-"));
});

async function writeCsv(
  name: string,
  rows: Iterable<AnyReportRow>,
  columns: readonly ReportColumn[] = PRINCIPAL_ACCESS_COLUMNS,
) {
  const writer = openCsvWriter(path.join(dir, name), columns);
  for (const row of rows) await writer.write(row);
  const written = await writer.finish();
  return { written, text: await readFile(written.path, "utf8") };
}

describe("openCsvWriter", () => {
  it("writes RFC 4180 that parses back, with formula injection escaped", async () => {
    const rows = [...samplePrincipalAccessRows(AWKWARD_NAMES.length)];
    const { written, text } = await writeCsv("awkward.csv", rows);
    expect(written.rows).toBe(rows.length);
    expect(text.startsWith(`${PRINCIPAL_ACCESS_COLUMNS.map((c) => c.name).join(",")}\r\n`)).toBe(
      true,
    );
    expect(text).toContain('"with ""quotes"""');
    const [header, ...records] = parse(text, { relax_column_count: false }) as string[][];
    expect(header).toEqual(PRINCIPAL_ACCESS_COLUMNS.map((c) => c.name));
    expect(records.map((r) => r[1])).toEqual(AWKWARD_NAMES.map(csvShown));
    expect(records.map((r) => r[2])).toEqual(
      AWKWARD_NAMES.map((name) => `arn:aws:iam::111122223333:role/${name}`),
    );
  });

  it("writes booleans as true/false, times as ISO-8601 UTC, tags and lists as JSON", async () => {
    const { text } = await writeCsv("types.csv", samplePrincipalAccessRows(1));
    const [, record] = parse(text, { columns: false }) as string[][];
    expect(record).toEqual([
      "2026-03-04T07:15:36.947Z",
      "plain",
      "arn:aws:iam::111122223333:role/plain",
      "IAMRole",
      '{"BusinessUnit":"Payments","team:on-call":"a \\"b\\", c"}',
      "S3",
      "read-data",
      "",
      "true",
      '["arn:aws:s3:::secret/*"]',
      "",
      '[{"policyType":"inline","policyName":"a \\"quoted\\", name","sids":["Read","#1"]}]',
      "[]",
    ]);
  });

  it("writes blank cells for absent timestamps and the header alone for no rows", async () => {
    const { text: empty } = await writeCsv("empty.csv", [], PRINCIPAL_COLUMNS);
    expect(empty).toBe(`${PRINCIPAL_COLUMNS.map((c) => c.name).join(",")}\r\n`);
    const { text } = await writeCsv(
      "blank.csv",
      [placeholderRow(PRINCIPAL_COLUMNS)],
      PRINCIPAL_COLUMNS,
    );
    const [, record] = parse(text) as string[][];
    expect(record?.[0]).toBe("");
    expect(record?.[4]).toBe("false");
    expect(record?.[9]).toBe("{}");
  });

  it("writes exactly what csv-stringify writes for the whole report", async () => {
    const alphabet = ['"', ",", "\n", "\r", "=", "+", "-", "@", "\t", " ", "a", "1", "\uFF1D", "é"];
    let seed = 42;
    const pick = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return alphabet[seed % alphabet.length] ?? "";
    };
    const text = () => Array.from({ length: (seed % 5) + 1 }, pick).join("");
    const columns = PRINCIPAL_ACCESS_COLUMNS.filter((c) => c.type === "string");
    const rows = Array.from({ length: 2_000 }, () =>
      Object.fromEntries(columns.map((c) => [c.name, text()])),
    );
    const { text: written } = await writeCsv("random.csv", rows, columns);
    const expected = stringify([columns.map((c) => c.name), ...rows.map((r) => Object.values(r))], {
      escape_formulas: true,
      quoted_match: /[\r\n]/,
      record_delimiter: "windows",
    });
    expect(written).toBe(expected);
  });
});
