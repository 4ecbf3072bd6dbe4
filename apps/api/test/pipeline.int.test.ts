import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { smallAccount } from "@sightline/aws-fake";
import { describe, expect, it } from "vitest";
import { startE2e } from "./e2e-pipeline.ts";

const { fake, settings, accountId, configure, prove, triggerAndWait } = await startE2e();

describe("trigger → worker → secure inbox, through the API", () => {
  it("delivers the reports to the partner's S3 inbox, encrypted with its key", async () => {
    const partner = await configure({ bucketName: smallAccount.INBOX_BUCKET });
    await prove(partner);
    const execution = await triggerAndWait(partner);
    expect(execution).toMatchObject({ status: "succeeded", kind: "ondemand", warnings: [] });
    // k9's 4 reports × (CSV, JSON Lines) × (dated, latest), the paths, the changes and the
    // findings × (dated, latest), k9's hive tables (4 CSV, 4 Parquet), Sightline's daily
    // history (7 Parquet), 2 manifests.
    expect(execution.reports).toHaveLength(4 * 2 * 2 + 3 * 2 + 8 + 7 + 2);
    for (const key of execution.reports) {
      const object = fake.objects.get(`${smallAccount.INBOX_BUCKET}/${key}`);
      expect(object?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(
        smallAccount.INBOX_KEY_ARN,
      );
    }
    expect(execution.reports.at(-1)).toBe(
      `customers/${partner.customerId}/reports/aws/${accountId}/sightline/latest/manifest.latest.json`,
    );
  });

  it("delivers to the local folder inbox when the partner has no bucket", async () => {
    const partner = await configure(false);
    const execution = await triggerAndWait(partner);
    expect(execution.status).toBe("succeeded");
    const latest = path.join(
      settings.analysis.inboxDir,
      "customers",
      partner.customerId,
      "reports",
      "aws",
      accountId,
      "latest",
    );
    const types = [
      "principals",
      "resources",
      "principal-access-summaries",
      "resource-access-summaries",
    ];
    // k9's folder holds k9's CSVs only; Sightline's full rows, paths and manifest are beside.
    expect((await readdir(latest)).sort()).toEqual(
      types.map((type) => `${type}.latest.csv`).sort(),
    );
    expect((await readdir(path.join(latest, "..", "sightline", "latest"))).sort()).toEqual(
      [
        "manifest.latest.json",
        ...types.map((type) => `${type}.latest.jsonl`),
        "resource-access-paths.latest.jsonl",
        "access-changes.latest.jsonl",
        "findings.latest.jsonl",
      ].sort(),
    );
    const principals = await readFile(path.join(latest, "principals.latest.csv"), "utf8");
    expect(principals).toContain(`arn:aws:iam::${accountId}:user/alice`);
    expect(fake.objects.size).toBe(
      [...fake.objects.keys()].filter((key) => !key.includes(partner.customerId)).length,
    );
  });
});
