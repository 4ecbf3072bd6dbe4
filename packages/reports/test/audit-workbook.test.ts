import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  type AnyReportRow,
  openAuditWorkbook,
  PRINCIPAL_ACCESS_COLUMNS,
  PRINCIPAL_COLUMNS,
  RESOURCE_ACCESS_COLUMNS,
  RESOURCE_COLUMNS,
  type ReportColumn,
  type ReportType,
  writeReport,
} from "../src/index.ts";
import { cellDate, readWorkbook } from "./read-workbook.ts";
import { ANALYSIS_TIME, placeholderRow, samplePrincipalAccessRows } from "./sample-rows.ts";

const CAPABILITY_MAP = {
  S3: { "read-data": ["s3:GetObject", "s3:GetObjectVersion"], "write-data": ["s3:PutObject"] },
  KMS: { "use-resource": ["kms:Decrypt"] },
};
const SUMMARY = { account: "012345678901", principals: 3, iamAdmins: 1, resources: 2 };
const FORMULA = '=HYPERLINK("http://evil","click")';
const LAST_USED = new Date("2026-02-01T23:59:58.123Z");

/** Rows of `columns` made of placeholders, then `fill`ed per row. */
function rowsOf(columns: readonly ReportColumn[], count: number, fill: (i: number) => object) {
  return Array.from({ length: count }, (_, i) => ({ ...placeholderRow(columns), ...fill(i) }));
}

const ROWS: Record<
  Exclude<ReportType, "resource-access-paths" | "access-changes" | "findings">,
  AnyReportRow[]
> = {
  principals: rowsOf(PRINCIPAL_COLUMNS, 3, (i) => ({
    analysis_time: ANALYSIS_TIME,
    principal_name: i === 0 ? FORMULA : `role-${i}`,
    principal_is_iam_admin: i === 1,
    principal_last_used: i === 2 ? LAST_USED : undefined,
    principal_tag_business_unit: "",
    principal_tags: { Owner: "équipe ✓ 数据", BusinessUnit: "+cmd|' /C calc'!A0" },
    group_arns: i === 0 ? ["arn:aws:iam::012345678901:group/admins"] : [],
  })),
  "principal-access-summaries": [...samplePrincipalAccessRows(40)],
  resources: rowsOf(RESOURCE_COLUMNS, 2, (i) => ({
    analysis_time: ANALYSIS_TIME,
    resource_name: i === 0 ? "@SUM(1+1)" : "bucket",
    allows_any_principal: i === 0,
  })),
  "resource-access-summaries": rowsOf(RESOURCE_ACCESS_COLUMNS, 7, (i) => ({
    analysis_time: ANALYSIS_TIME,
    principal_in_account: i % 2 === 0,
  })),
};

const tempDir = () => mkdtemp(path.join(tmpdir(), "sightline-workbook-"));

describe("openAuditWorkbook", () => {
  it("writes every report's sheet in the same pass as its CSV, read back by SheetJS", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "resource-access-audit.2026-03-04-0715.xlsx");
    const workbook = await openAuditWorkbook(file, {
      analysisTime: ANALYSIS_TIME,
      summary: SUMMARY,
      capabilityMap: CAPABILITY_MAP,
    });
    const reports = [];
    for (const [type, rows] of Object.entries(ROWS)) {
      reports.push(
        await writeReport(type as ReportType, rows as never, { formats: ["csv"], dir, workbook }),
      );
    }
    const written = await workbook.finish();

    const read = await readWorkbook(file);
    expect(read.names).toEqual([
      "audit summary",
      "principals",
      "principal access",
      "resources",
      "resource access",
      "capability mapping",
    ]);
    for (const report of reports) {
      const name = report.sheet?.name as string;
      const [header, ...rows] = read.rows(name);
      const columns = Object.keys(placeholderRow(columnsOf(report.type)));
      expect(header).toEqual(columns);
      const csv = parse(await readFile(report.files[0]?.path as string)) as string[][];
      expect(rows).toHaveLength(report.rows);
      expect(rows).toHaveLength(csv.length - 1);
      expect(report.sheet).toEqual({ name, sheets: [name], rows: report.rows });
    }
    expect(written.rows).toBe(3 + 40 + 2 + 7);
    expect(written.sheets.map((s) => [s.name, s.rows])).toEqual([
      ["principals", 3],
      ["principal access", 40],
      ["resources", 2],
      ["resource access", 7],
      ["capability mapping", 4],
    ]);
    const bytes = await readFile(file);
    expect(written.bytes).toBe(bytes.byteLength);
    expect(written.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("types its cells: text stays text (never a formula), booleans, UTC dates, JSON text, blanks", async () => {
    const file = path.join(await tempDir(), "typed.xlsx");
    const workbook = await openAuditWorkbook(file, {
      analysisTime: ANALYSIS_TIME,
      summary: SUMMARY,
      capabilityMap: CAPABILITY_MAP,
    });
    for (const [type, rows] of Object.entries(ROWS)) {
      const sheet = workbook.sheet(type.replace("-summaries", ""), columnsOf(type as ReportType));
      for (const row of rows) await sheet.write(row);
      await sheet.finish();
    }
    await workbook.finish();
    const read = await readWorkbook(file);
    const cell = (address: string) => read.cell("principals", address);

    // A: analysis_time, B: principal_name, E: principal_is_iam_admin, F: principal_last_used
    expect(cellDate(cell("A2"))?.toISOString()).toBe(ANALYSIS_TIME.toISOString());
    expect(cell("A2")?.z).toBe("yyyy-mm-dd hh:mm:ss");
    expect(cell("B2")).toMatchObject({ t: "s", v: FORMULA });
    expect(cell("B2")?.f).toBeUndefined();
    expect(cell("E2")).toMatchObject({ t: "b", v: false });
    expect(cell("E3")).toMatchObject({ t: "b", v: true });
    expect(cell("F2")).toBeUndefined();
    expect(cellDate(cell("F4"))?.toISOString()).toBe(LAST_USED.toISOString());
    // G: principal_tag_business_unit (blank), J: principal_tags, V: group_arns
    expect(cell("G2")).toBeUndefined();
    expect(cell("J2")).toMatchObject({
      t: "s",
      v: '{"Owner":"équipe ✓ 数据","BusinessUnit":"+cmd|\' /C calc\'!A0"}',
    });
    expect(cell("V2")).toMatchObject({ t: "s", v: '["arn:aws:iam::012345678901:group/admins"]' });
    expect(cell("V3")).toMatchObject({ t: "s", v: "[]" });
    expect(read.cell("resources", "B2")).toMatchObject({ t: "s", v: "@SUM(1+1)" });

    // Every awkward principal name of the sample rows comes back as it was written.
    const names = read
      .rows("principal-access")
      .slice(1)
      .map((row) => row[1]);
    const expected = ROWS["principal-access-summaries"].map((row) => row.principal_name);
    expect(names).toEqual(expected.map((name) => (name === "" ? undefined : name)));
    for (const row of read.rows("principal-access").slice(1)) {
      expect(typeof row[8]).toBe("boolean");
    }
  });

  it("opens on a summary of the analysis and of every sheet's rows", async () => {
    const file = path.join(await tempDir(), "summary.xlsx");
    const workbook = await openAuditWorkbook(file, {
      analysisTime: ANALYSIS_TIME,
      summary: SUMMARY,
      capabilityMap: CAPABILITY_MAP,
    });
    const sheet = workbook.sheet("principals", PRINCIPAL_COLUMNS);
    for (const row of ROWS.principals) await sheet.write(row);
    await sheet.finish();
    await workbook.finish();
    const read = await readWorkbook(file);
    expect(read.names[0]).toBe("audit summary");
    const [header, ...rows] = read.rows("audit summary");
    expect(header).toEqual(["item", "value", "sheets"]);
    expect(rows.map((row) => row[0])).toEqual([
      "analysis time",
      "account",
      "principals",
      "IAM admins",
      "resources",
      "rows: principals",
      "rows: capability mapping",
    ]);
    expect(cellDate(read.cell("audit summary", "B2"))?.toISOString()).toBe(
      ANALYSIS_TIME.toISOString(),
    );
    expect(read.cell("audit summary", "B3")).toMatchObject({ t: "s", v: "012345678901" });
    expect(rows.slice(2).map((row) => row.slice(1))).toEqual([
      [3],
      [1],
      [2],
      [3, "principals"],
      [4, "capability mapping"],
    ]);
    expect(read.rows("capability mapping")).toEqual([
      ["service", "capability", "action"],
      ["S3", "read-data", "s3:GetObject"],
      ["S3", "read-data", "s3:GetObjectVersion"],
      ["S3", "write-data", "s3:PutObject"],
      ["KMS", "use-resource", "kms:Decrypt"],
    ]);
  });
});

function columnsOf(type: ReportType): readonly ReportColumn[] {
  const columns: Record<string, readonly ReportColumn[]> = {
    principals: PRINCIPAL_COLUMNS,
    resources: RESOURCE_COLUMNS,
    "principal-access-summaries": PRINCIPAL_ACCESS_COLUMNS,
    "resource-access-summaries": RESOURCE_ACCESS_COLUMNS,
  };
  return columns[type] as readonly ReportColumn[];
}
