import { caseLabel, load, mib, ratio, s, table } from "./report-table.ts";
import type { SingleAccountResult } from "./single-account-case.ts";

const GIB = 2 ** 30;

/**
 * The scale issue's targets for the 10,000-principal account (k9's CSVs, Sightline's rows as
 * Parquet): the worker's CPU, the bytes sent to the inbox and the worker's peak RSS; the wall
 * time is an aim for a quiet machine, printed beside the load.
 */
export const LARGE_TARGETS = {
  workerCpuSeconds: 60,
  uploadedBytes: 2.5 * GIB,
  peakRssBytes: 1 * GIB,
  wallMs: 45_000,
} as const;

/** Each large run against the targets, with its ratio and the machine's load beside it. */
export function targetsTable(results: readonly SingleAccountResult[]): string {
  const large = results.filter((r) => r.size === "large");
  const t = LARGE_TARGETS;
  return table(
    [
      "account",
      "worker CPU (≤ 60 s)",
      "bytes uploaded (≤ 2.5 GiB)",
      "worker peak RSS (≤ 1 GiB)",
      "wall, trigger → manifest (aim ≤ 45 s, quiet machine)",
      "load 1 min",
    ],
    large.map((r) => [
      caseLabel(r),
      `${r.workerCpuSeconds.toFixed(1)} s (${ratio(r.workerCpuSeconds, t.workerCpuSeconds)})`,
      `${mib(r.uploadedBytes)} (${ratio(r.uploadedBytes, t.uploadedBytes)})`,
      `${mib(r.peakRssBytes)} (${ratio(r.peakRssBytes, t.peakRssBytes)})`,
      `${s(r.timing.totalMs)} (${ratio(r.timing.totalMs, t.wallMs)})`,
      load(r.machine),
    ]),
  );
}

/** What the workbook adds to the large account's run without it: CPU, bytes, memory. */
export function workbookLine(results: readonly SingleAccountResult[]): string | undefined {
  const without = results.find((r) => r.size === "large" && !r.workbook);
  const withBook = results.find((r) => r.size === "large" && r.workbook);
  if (!without || !withBook) return undefined;
  const signed = (text: string, value: number) => `${value >= 0 ? "+" : "−"}${text}`;
  const cpu = withBook.workerCpuSeconds - without.workerCpuSeconds;
  const bytes = withBook.uploadedBytes - without.uploadedBytes;
  const rss = withBook.peakRssBytes - without.peakRssBytes;
  const wall = withBook.timing.totalMs - without.timing.totalMs;
  const book = withBook.bytesPerFormat.xlsx?.bytes ?? 0;
  return [
    `The workbook's extra, large account (its run minus the run without it): worker CPU`,
    `${signed(`${Math.abs(cpu).toFixed(1)} s`, cpu)}, bytes uploaded ${signed(mib(Math.abs(bytes)), bytes)}`,
    `(the workbook ${mib(book)}), peak RSS ${signed(mib(Math.abs(rss)), rss)}, wall`,
    `${signed(s(Math.abs(wall)), wall)}; load ${load(withBook.machine)}`,
  ].join(" ");
}

/** The objects of each run by kind: how many, their bytes, and what was sent for them. */
export function objectKindsTable(results: readonly SingleAccountResult[]): string {
  return table(
    ["account", "objects", "count", "bytes stored", "bytes uploaded", "server-side copies"],
    results.flatMap((r) =>
      r.kinds.map((k) => [
        caseLabel(r),
        k.kind,
        String(k.objects),
        mib(k.bytes),
        mib(k.uploadedBytes),
        String(k.copies),
      ]),
    ),
  );
}
