import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { openAuditWorkbook, type PrincipalAccessReportRow, writeReport } from "../src/index.ts";
import { ANALYSIS_TIME } from "./sample-rows.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const ROWS = 200_000;

/** The heap, and also buffers outside it (where zipped sheets would pile up) when `external`. */
function memoryInUse(external = false): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + (external ? usage.external : 0);
}

/** Rows whose strings are all new, as if the writers kept them they would fill the heap. */
function* uniqueRows(heapSamples: number[], external = false): Generator<PrincipalAccessReportRow> {
  for (let i = 0; i < ROWS; i++) {
    if (i % 20_000 === 0) {
      gc();
      heapSamples.push(memoryInUse(external));
    }
    const principal = `arn:aws:iam::111122223333:role/service-role/principal-${Math.floor(i / 40)}`;
    yield {
      analysis_time: ANALYSIS_TIME,
      principal_name: `principal-${Math.floor(i / 40)}`,
      principal_arn: principal,
      principal_type: "IAMRole",
      principal_tags: { Environment: "production", Owner: `team-${i % 97}` },
      service_name: "S3",
      access_capability: "read-data",
      resource_arn: `arn:aws:s3:::customer-data-bucket-${i}/exports/${i}/*`,
      conditional: false,
      except_resources: [],
      resource_pattern: `arn:aws:s3:::customer-data-bucket-${i}/exports/${i}/*`,
      granted_by: [{ policyType: "inline", policyName: `policy-${i}`, sids: ["#0"] }],
      except_resources_this_scope_only: [],
    };
  }
}

it("writes 200,000 rows in every format while the heap stays far below the data's size", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-stream-"));
  const heapSamples: number[] = [];
  gc();
  const before = process.memoryUsage().heapUsed;
  const report = await writeReport("principal-access-summaries", uniqueRows(heapSamples), {
    formats: ["csv", "jsonl", "parquet"],
    dir,
    // The Parquet writer holds one row group by design; a small one leaves any other retention visible.
    parquetRowGroupSize: 10_000,
  });
  expect(report.rows).toBe(ROWS);
  const jsonBytes = report.files.find((file) => file.format === "jsonl")?.bytes ?? 0;
  const growth = Math.max(...heapSamples) - before;
  // Holding the rows, or any format's output, would take about their JSON size (94 MiB).
  expect(growth).toBeLessThan(jsonBytes / 10);
}, 180_000);

it("writes 200,000 rows to the workbook while memory stays far below the sheet's XML", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-stream-"));
  const samples: number[] = [];
  const workbook = await openAuditWorkbook(path.join(dir, "audit.xlsx"), {
    analysisTime: ANALYSIS_TIME,
    summary: { account: "111122223333", principals: 5_000, iamAdmins: 0, resources: 0 },
    capabilityMap: {},
  });
  gc();
  const before = memoryInUse(true);
  const report = await writeReport("principal-access-summaries", uniqueRows(samples, true), {
    formats: [],
    dir,
    workbook,
  });
  const written = await workbook.finish();
  expect(report.sheet?.rows).toBe(ROWS);
  expect(written.rows).toBe(ROWS);
  // Without waiting for the zip, the sheet's XML piles up outside the heap: 160 MiB here.
  expect(Math.max(...samples) - before).toBeLessThan(48 * 2 ** 20);
}, 180_000);
