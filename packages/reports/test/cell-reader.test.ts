import { describe, expect, it } from "vitest";
import { cellReader } from "../src/columns/cell-reader.ts";
import { column } from "../src/columns/column.ts";
import { REPORT_COLUMNS, REPORT_TYPES } from "../src/index.ts";

describe("cellReader", () => {
  it("reads every report's cells in column order", () => {
    for (const type of REPORT_TYPES) {
      const columns = REPORT_COLUMNS[type];
      const row = Object.fromEntries(columns.map((c, i) => [c.name, `${type}:${i}`]));
      const cells: unknown[] = [];
      cellReader(columns)(row, cells as never[]);
      expect(cells, type).toEqual(columns.map((c) => row[c.name]));
    }
  });

  it("reads names that are not identifiers as the names they are", () => {
    const names = [
      'a "quoted" name',
      "back\\slash",
      "line\nend",
      "\u2028",
      "ünï",
      "constructor",
      "",
    ];
    const columns = names.map((name) => column(name, "string"));
    const row = Object.fromEntries(names.map((name, i) => [name, `v${i}`]));
    const cells: unknown[] = [];
    cellReader(columns)(row, cells as never[]);
    expect(cells).toEqual(names.map((_, i) => `v${i}`));
  });

  it("reads a missing cell as undefined and overwrites what the array held", () => {
    const cells: unknown[] = ["old", "old"];
    cellReader([column("a", "string"), column("b", "timestamp")])({ a: "x" }, cells as never[]);
    expect(cells).toEqual(["x", undefined]);
  });
});
