import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  K9_COLUMN_COUNT,
  PRINCIPAL_COLUMNS,
  type PrincipalReportRow,
  writeReport,
} from "../src/index.ts";
import { readParquet } from "./read-parquet.ts";

const row: PrincipalReportRow = {
  analysis_time: new Date("2024-12-10T05:03:07.766Z"),
  principal_name: "@ops-bot",
  principal_arn: "arn:aws:iam::123456789012:user/@ops-bot",
  principal_type: "IAMUser",
  principal_is_iam_admin: true,
  principal_last_used: new Date("2024-12-10T05:03:00.000Z"),
  principal_tag_business_unit: "=Payments",
  principal_tag_environment: "prod, eu",
  principal_tag_used_by: "",
  principal_tags: { BusinessUnit: "=Payments", environment: "prod, eu" },
  password_last_used: undefined,
  password_last_rotated: new Date("2023-01-02T03:04:05.999Z"),
  password_state: "Active",
  access_key_1_last_used: undefined,
  access_key_1_last_rotated: new Date("2024-06-01T00:00:00.000Z"),
  access_key_1_state: "Inactive",
  access_key_2_last_used: undefined,
  access_key_2_last_rotated: undefined,
  access_key_2_state: "",
  principal_account_id: "123456789012",
  principal_is_iam_admin_conditional: false,
  group_arns: [],
  permissions_boundary_arn: "",
  iam_admin_path: [],
  iam_admin_granted_by: [{ policy: "AdministratorAccess" }],
  iam_admin_actions: ["iam:*"],
};

describe("the k9 CSV dialect", () => {
  it("writes exactly k9's columns in k9's value formats, and every column in the other formats", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-k9-"));
    const report = await writeReport(
      "principals",
      [row, { ...row, principal_is_iam_admin: false }],
      {
        formats: ["csv", "parquet"],
        dir,
        csvDialect: "k9",
      },
    );
    const csv = await readFile(path.join(dir, "principals.csv"), "utf8");
    const [header, ...records] = parse(csv) as string[][];
    const k9 = PRINCIPAL_COLUMNS.slice(0, K9_COLUMN_COUNT.principals).map((c) => c.name);
    expect(header).toEqual(k9);
    expect(header).toHaveLength(19);
    const cells = Object.fromEntries(k9.map((name, i) => [name, records[0]?.[i]]));
    expect(cells).toMatchObject({
      analysis_time: "2024-12-10T05:03:07.766000+00:00",
      principal_name: "@ops-bot",
      principal_is_iam_admin: "True",
      principal_last_used: "2024-12-10 05:03:00+00:00",
      principal_tag_business_unit: "=Payments",
      principal_tag_environment: "prod, eu",
      password_last_used: "",
      password_last_rotated: "2023-01-02 03:04:05+00:00",
      password_state: "Active",
      access_key_1_state: "Inactive",
      access_key_2_state: "",
    });
    expect(JSON.parse(cells.principal_tags ?? "")).toEqual(row.principal_tags);
    expect(records[1]?.[k9.indexOf("principal_is_iam_admin")]).toBe("False");
    // AWS names are kept exact: no formula escaping in k9's CSVs.
    expect(csv).not.toContain("'@ops-bot");

    const parquet = report.files.find((f) => f.format === "parquet");
    const { rows } = await readParquet(parquet?.path ?? "");
    expect(Object.keys(rows[0] ?? {})).toEqual(PRINCIPAL_COLUMNS.map((c) => c.name));
  });

  it("refuses a k9 CSV of a report k9 does not have", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-k9-"));
    await expect(
      writeReport("resource-access-paths", [], { formats: ["csv"], dir, csvDialect: "k9" }),
    ).rejects.toThrow("k9 has no resource-access-paths report");
  });
});
