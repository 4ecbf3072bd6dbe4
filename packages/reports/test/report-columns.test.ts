import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { K9_COLUMN_COUNT, REPORT_COLUMNS, REPORT_TYPES, type ReportType } from "../src/index.ts";

// k9 Security's columns, in k9's order, as the pipeline issue lists them.
const K9_COLUMNS: Record<ReportType, string> = {
  principals:
    "analysis_time, principal_name, principal_arn, principal_type, principal_is_iam_admin, principal_last_used, principal_tag_business_unit, principal_tag_environment, principal_tag_used_by, principal_tags, password_last_used, password_last_rotated, password_state, access_key_1_last_used, access_key_1_last_rotated, access_key_1_state, access_key_2_last_used, access_key_2_last_rotated, access_key_2_state",
  resources:
    "analysis_time, resource_name, resource_arn, resource_type, resource_tag_business_unit, resource_tag_environment, resource_tag_owner, resource_tag_confidentiality, resource_tag_integrity, resource_tag_availability, resource_tags",
  "principal-access-summaries":
    "analysis_time, principal_name, principal_arn, principal_type, principal_tags, service_name, access_capability, resource_arn",
  "resource-access-summaries":
    "analysis_time, service_name, resource_name, resource_arn, access_capability, principal_type, principal_name, principal_arn, resource_tag_confidentiality",
  // Sightline's own report: no k9 counterpart.
  "resource-access-paths": "",
  "access-changes": "",
  findings: "",
};

const names = (type: ReportType) => REPORT_COLUMNS[type].map((column) => column.name);
const repoFile = (file: string) =>
  readFile(path.join(import.meta.dirname, "../../..", file), "utf8");

describe.each(REPORT_TYPES)("%s", (type) => {
  it("starts with k9's columns in k9's order, then appends Sightline's", () => {
    const k9 = K9_COLUMNS[type] ? K9_COLUMNS[type].split(", ") : [];
    expect(names(type).slice(0, K9_COLUMN_COUNT[type])).toEqual(k9);
    expect(new Set(names(type)).size).toBe(names(type).length);
  });

  it("is documented column by column in docs/reports.md, in order", async () => {
    const page = await repoFile("docs/reports.md");
    // The report's section runs to the next heading of its level or above.
    const section = page.split(`\n### ${type}\n`)[1]?.split(/\n#{1,3} /)[0] ?? "";
    const documented = [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(names(type));
  });

  it("has an Athena table over the hive layout with the same columns and types", async () => {
    const athena = await repoFile("docs/athena.md");
    const table = type.replaceAll("-", "_");
    const ddl = athena.split(`CREATE EXTERNAL TABLE ${table} (`)[1]?.split(")")[0] ?? "";
    const declared = [...ddl.matchAll(/^\s+(\w+) (\w+),?$/gm)].map((m) => [m[1], m[2]]);
    const athenaType = {
      string: "string",
      boolean: "boolean",
      timestamp: "timestamp",
      integer: "bigint",
      json: "string",
    };
    expect(declared).toEqual(REPORT_COLUMNS[type].map((c) => [c.name, athenaType[c.type]]));
    expect(athena).toContain(`LOCATION 's3://<bucket>/sightline/hive/${type}/'`);
    // Hive refuses a data column named like a partition column.
    for (const partition of ["customer_id", "account_id", "dt"]) {
      expect(names(type)).not.toContain(partition);
    }
  });
});
