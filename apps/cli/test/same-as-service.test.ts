import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { analyzeAccount, buildAccessGraph, createAccountModel } from "@sightline/engine";
import { AUDIT_WORKBOOK_TYPE, type ReportFormat, writeAccountReports } from "@sightline/reports";
import { beforeAll, describe, expect, it } from "vitest";
import XLSX from "xlsx";
import { runAnalyze } from "../src/index.ts";
import { ACCOUNT, ADMIN, KEY, metadata, snapshot, writeOneAccount } from "./one-account.ts";

const analysisTime = new Date("2026-03-04T07:15:00Z");
const WORKBOOK = `${AUDIT_WORKBOOK_TYPE}.xlsx`;

let dir: string;
let files: Awaited<ReturnType<typeof writeOneAccount>>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-cli-same-"));
  files = await writeOneAccount(dir);
});

/** As the worker writes a collected account's reports (services' run-analysis.ts). */
async function writeAsService(out: string, formats: readonly ReportFormat[]) {
  const model = createAccountModel(snapshot);
  const analysis = analyzeAccount(model, { accounts: [ACCOUNT] });
  const graph = buildAccessGraph(model);
  await writeAccountReports({
    model,
    analysis,
    graph,
    metadata,
    analysisTime,
    dir: out,
    formats,
    workbook: true,
  });
}

/** Every sheet of a workbook as SheetJS reads it: the bytes carry the zip's file times. */
async function sheets(file: string): Promise<Record<string, unknown[][]>> {
  const workbook = XLSX.read(await readFile(file), { type: "buffer" });
  return Object.fromEntries(
    workbook.SheetNames.map((name) => [
      name,
      XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets[name] as XLSX.WorkSheet, { header: 1 }),
    ]),
  );
}

describe("sightline analyze and the service", () => {
  it.each([{ formats: ["csv"] }, { formats: ["csv", "jsonl", "parquet"] }] as const)(
    "write the same files for one account ($formats)",
    async ({ formats }) => {
      const fromCli = path.join(dir, `cli-${formats.join("-")}`);
      const fromService = path.join(dir, `service-${formats.join("-")}`);
      await runAnalyze({
        ...files,
        formats,
        workbook: true,
        out: fromCli,
        analysisTime,
        progress: () => {},
      });
      await writeAsService(fromService, formats);

      const written = (await readdir(fromService)).sort();
      expect((await readdir(fromCli)).sort()).toEqual([...written, "issues.json"].sort());
      // Four reports in each format asked for, the paths in the full-row ones, and the workbook.
      const full = formats.length === 1 ? ["parquet"] : ["jsonl", "parquet"];
      expect(written).toEqual(
        [
          ...[
            "principals",
            "resources",
            "principal-access-summaries",
            "resource-access-summaries",
          ].flatMap((type) => formats.map((format) => `${type}.${format}`)),
          ...full.map((format) => `resource-access-paths.${format}`),
          WORKBOOK,
        ].sort(),
      );
      for (const name of written.filter((name) => name !== WORKBOOK))
        expect(await readFile(path.join(fromCli, name)), name).toEqual(
          await readFile(path.join(fromService, name)),
        );
      expect(await sheets(path.join(fromCli, WORKBOOK))).toEqual(
        await sheets(path.join(fromService, WORKBOOK)),
      );

      // What the service adds and the command line lacked: patterns expanded to the resources
      // they cover, the listed bucket without a policy, the way to an IAM admin.
      const access = await readFile(path.join(fromCli, "principal-access-summaries.csv"), "utf8");
      expect(access).toContain("alice,arn:aws:iam::111122223333:user/alice,IAMUser,");
      expect(access).toContain(",S3,read-data,arn:aws:s3:::reports\r\n");
      expect(access).toContain(`,KMS,read-data,${KEY}\r\n`);
      expect(access).toContain(`bob,arn:aws:iam::${ACCOUNT}:user/bob,IAMUser,`);
      expect(access).toContain(`,STS,use-resource,${ADMIN}\r\n`);
      const resources = await readFile(path.join(fromCli, "resources.csv"), "utf8");
      expect(resources).toContain(",logs,arn:aws:s3:::logs,S3Bucket,");
      const workbook = await sheets(path.join(fromCli, WORKBOOK));
      expect(workbook["audit summary"]).toContainEqual(["account", ACCOUNT]);
    },
  );
});
