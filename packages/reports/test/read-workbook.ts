import { readFile } from "node:fs/promises";
import XLSX from "xlsx";

/** A cell as SheetJS reads it: `t` its type (`s` text, `b` boolean, `n` number), `f` a formula. */
export type ReadCell = XLSX.CellObject;

/** A workbook read back by SheetJS, a second library, as a spreadsheet program would read it. */
export async function readWorkbook(file: string) {
  const workbook = XLSX.read(await readFile(file), {
    type: "buffer",
    cellNF: true,
    cellFormula: true,
  });
  const sheet = (name: string) => {
    const found = workbook.Sheets[name];
    if (!found) throw new Error(`no sheet '${name}'`);
    return found;
  };
  return {
    names: workbook.SheetNames,
    /** The cell at `address` (`A1`), undefined when blank. */
    cell: (name: string, address: string): ReadCell | undefined => sheet(name)[address],
    /** The sheet's rows as arrays of values, header first; blank cells are `undefined`. */
    rows: (name: string): unknown[][] =>
      XLSX.utils.sheet_to_json<unknown[]>(sheet(name), { header: 1, raw: true, defval: undefined }),
  };
}

/** A date cell's instant: Excel stores days since 1899-12-30, here in UTC. */
export function cellDate(cell: ReadCell | undefined): Date | undefined {
  if (cell?.t !== "n" || typeof cell.z !== "string" || !XLSX.SSF.is_date(cell.z)) return undefined;
  return new Date(Math.round(((cell.v as number) - 25_569) * 86_400_000));
}
