import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openJsonLinesWriter, PRINCIPAL_ACCESS_COLUMNS, PRINCIPAL_COLUMNS } from "../src/index.ts";
import { AWKWARD_NAMES, placeholderRow, samplePrincipalAccessRows } from "./sample-rows.ts";

describe("openJsonLinesWriter", () => {
  it("writes one object per line, keys in column order, values typed", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-jsonl-"));
    const writer = openJsonLinesWriter(path.join(dir, "rows.jsonl"), PRINCIPAL_ACCESS_COLUMNS);
    const rows = [...samplePrincipalAccessRows(AWKWARD_NAMES.length)];
    for (const row of rows) await writer.write(row);
    const written = await writer.finish();
    const text = await readFile(written.path, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toHaveLength(rows.length);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const object of parsed) {
      expect(Object.keys(object)).toEqual(PRINCIPAL_ACCESS_COLUMNS.map((c) => c.name));
    }
    expect(parsed.map((object) => object.principal_name)).toEqual(AWKWARD_NAMES);
    expect(parsed[0]).toEqual({
      ...rows[0],
      analysis_time: "2026-03-04T07:15:36.947Z",
      principal_tags: { BusinessUnit: "Payments", "team:on-call": 'a "b", c' },
      conditional: true,
      except_resources: ["arn:aws:s3:::secret/*"],
    });
  });

  it("writes an absent timestamp as null", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-jsonl-"));
    const writer = openJsonLinesWriter(path.join(dir, "principals.jsonl"), PRINCIPAL_COLUMNS);
    await writer.write(placeholderRow(PRINCIPAL_COLUMNS));
    const written = await writer.finish();
    const object = JSON.parse(await readFile(written.path, "utf8"));
    expect(object.analysis_time).toBeNull();
    expect(object.principal_is_iam_admin).toBe(false);
    expect(object.principal_tags).toEqual({});
    expect(object.principal_name).toBe("x");
  });
});
