import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { AUDIT_SHEET_NAMES, type AuditSheetReport } from "@sightline/reports";
import { describe, expect, it } from "vitest";
import XLSX from "xlsx";
import { writeOneAccount } from "./one-account.ts";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");

describe("sightline analyze --format xlsx", () => {
  it("writes k9's workbook beside the CSVs, each sheet holding the CSV's rows", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-cli-xlsx-"));
    const files = await writeOneAccount(dir);
    const out = path.join(dir, "out");
    const { stdout } = await run(bin, [
      "analyze",
      ...files.authorizationDetails.flatMap((file) => ["--authorization-details", file]),
      "--resource-policies",
      files.resourcePolicies,
      ...files.buckets.flatMap((file) => ["--buckets", file]),
      "--format",
      "csv,xlsx",
      "--out",
      out,
    ]);
    const counts = JSON.parse(stdout) as Record<string, number>;
    // Read back by SheetJS, a second library, as a spreadsheet program would read it.
    const workbook = XLSX.read(await readFile(path.join(out, "resource-access-audit.xlsx")));
    expect(workbook.SheetNames).toEqual(
      expect.arrayContaining(["audit summary", ...Object.values(AUDIT_SHEET_NAMES)]),
    );
    for (const [type, name] of Object.entries(AUDIT_SHEET_NAMES) as [AuditSheetReport, string][]) {
      const sheet = workbook.Sheets[name] as XLSX.WorkSheet;
      const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 });
      const csv = (await readFile(path.join(out, `${type}.csv`), "utf8")).trimEnd().split("\r\n");
      expect(counts[type], type).toBeGreaterThan(0);
      expect(rows.length, name).toBe(csv.length);
      expect(rows.length - 1, name).toBe(counts[type]);
      expect(rows[0], name).toEqual(csv[0]?.split(","));
    }
  });

  it("is refused for an Azure subscription: k9's workbook is of an AWS account", async () => {
    await expect(
      run(bin, ["analyze", "--azure-snapshot", "s.json", "--format", "xlsx", "--out", "o"]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("Azure has none") });
  });
});
