import { access, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EXCEL_MAX_CELL_CHARS,
  openAuditWorkbook,
  PRINCIPAL_ACCESS_COLUMNS,
  writeReport,
} from "../src/index.ts";
import { readWorkbook } from "./read-workbook.ts";
import { ANALYSIS_TIME, samplePrincipalAccessRows } from "./sample-rows.ts";

const SUMMARY = { account: "111122223333", principals: 1, iamAdmins: 0, resources: 0 };
const CAPABILITY_MAP = { S3: { "read-data": ["s3:GetObject"] } };

async function open(maxRowsPerSheet?: number) {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "sightline-workbook-")), "audit.xlsx");
  const options = { analysisTime: ANALYSIS_TIME, summary: SUMMARY, capabilityMap: CAPABILITY_MAP };
  return { file, workbook: await openAuditWorkbook(file, { ...options, maxRowsPerSheet }) };
}

describe("openAuditWorkbook limits", () => {
  it("continues a sheet past the row limit on '<name> (2)', '(3)' … with the header repeated", async () => {
    const { file, workbook } = await open(5);
    const rows = [...samplePrincipalAccessRows(13)];
    const report = await writeReport("principal-access-summaries", rows, {
      formats: ["csv"],
      dir: path.dirname(file),
      workbook,
    });
    const names = ["principal access", ...[2, 3, 4].map((n) => `principal access (${n})`)];
    expect(report.sheet).toEqual({ name: "principal access", sheets: names, rows: 13 });
    const written = await workbook.finish();
    expect(written.rows).toBe(13);

    const read = await readWorkbook(file);
    expect(read.names).toEqual(["audit summary", ...names, "capability mapping"]);
    const header = PRINCIPAL_ACCESS_COLUMNS.map((c) => c.name);
    const sheets = names.map((name) => read.rows(name));
    expect(sheets.map((sheet) => sheet.length)).toEqual([5, 5, 5, 2]);
    for (const sheet of sheets) expect(sheet[0]).toEqual(header);
    const arns = sheets.flatMap((sheet) => sheet.slice(1).map((row) => row[2]));
    expect(arns).toEqual(rows.map((row) => row.principal_arn));
    const summary = read.rows("audit summary").find((row) => row[0] === "rows: principal access");
    expect(summary).toEqual(["rows: principal access", 13, names.join(", ")]);
  });

  it("cuts text past Excel's 32,767 characters, marking the cut", async () => {
    const { file, workbook } = await open();
    const sheet = workbook.sheet("long", [{ name: "text", type: "string" }]);
    await sheet.write({ text: "a".repeat(40_000) });
    await sheet.write({ text: `${"b".repeat(EXCEL_MAX_CELL_CHARS - 2)}😀c` });
    await sheet.finish();
    await workbook.finish();
    const [, first, second] = (await readWorkbook(file)).rows("long") as string[][];
    expect(first?.[0]).toBe(`${"a".repeat(EXCEL_MAX_CELL_CHARS - 1)}…`);
    // The cut falls inside the emoji's surrogate pair: the whole emoji goes.
    expect(second?.[0]).toBe(`${"b".repeat(EXCEL_MAX_CELL_CHARS - 2)}…`);
  });

  it("refuses sheet names Excel refuses or the workbook keeps, and a sheet while one is open", async () => {
    const { workbook } = await open();
    const columns = [{ name: "text", type: "string" }] as const;
    for (const name of ["", "a".repeat(26), "a/b", "a[1]", "what?", "'quoted'", "Audit Summary"]) {
      expect(() => workbook.sheet(name, columns), name).toThrow(RangeError);
    }
    const sheet = workbook.sheet("first", columns);
    expect(() => workbook.sheet("second", columns)).toThrow(/'first' is not finished/);
    await expect(workbook.finish()).rejects.toThrow(/'first' is not finished/);
    await sheet.finish();
    expect(() => workbook.sheet("FIRST", columns)).toThrow(/already exists/);
    await workbook.abort();
  });

  it("removes the file when a report's rows throw", async () => {
    const { file, workbook } = await open();
    function* failing() {
      yield* samplePrincipalAccessRows(10);
      throw new Error("engine failed");
    }
    await expect(
      writeReport("principal-access-summaries", failing(), {
        formats: ["csv"],
        dir: path.dirname(file),
        workbook,
      }),
    ).rejects.toThrow("engine failed");
    await expect(access(file)).rejects.toThrow();
    await expect(
      access(path.join(path.dirname(file), "principal-access-summaries.csv")),
    ).rejects.toThrow();
  });

  it("refuses a row limit outside 2 to Excel's", async () => {
    await expect(open(1)).rejects.toThrow(RangeError);
    await expect(open(1_048_577)).rejects.toThrow(RangeError);
  });
});
