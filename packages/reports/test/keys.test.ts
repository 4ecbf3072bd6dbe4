import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildManifest,
  type DeliveryTarget,
  datedManifestKey,
  datedReportKey,
  hiveReportKey,
  latestManifestKey,
  latestReportKey,
  Manifest,
  planReportObjects,
  type WrittenReport,
} from "../src/index.ts";
import { ATHENA_LOCATIONS } from "./k9-vectors/index.ts";

const target: DeliveryTarget = {
  provider: "aws",
  customerId: "P123456-000000000042",
  accountId: "210987654321",
  // 23:59 UTC on 31 Jan: local time zones would give other days and months.
  analysisTime: new Date("2026-01-31T23:59:58.500Z"),
  latest: true,
  hive: true,
  formats: ["csv", "parquet"],
};
// A zone where that instant is already 1 February, so that local-time getters would show.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "Pacific/Auckland";
});
afterAll(() => {
  process.env.TZ = zone;
});

const account = "customers/P123456-000000000042/reports/aws/210987654321";
const sha = (c: string) => c.repeat(64);

describe("report keys", () => {
  it("date the report by the UTC analysis time, to the minute", () => {
    expect(datedReportKey(target, "principals", "csv")).toBe(
      `${account}/2026/01/principals.2026-01-31-2359.csv`,
    );
    expect(latestReportKey(target, "resource-access-summaries", "csv")).toBe(
      `${account}/latest/resource-access-summaries.latest.csv`,
    );
    // Sightline's own objects stay out of k9's folders.
    expect(latestReportKey(target, "resource-access-summaries", "jsonl")).toBe(
      `${account}/sightline/latest/resource-access-summaries.latest.jsonl`,
    );
    expect(datedReportKey(target, "resource-access-paths", "parquet")).toBe(
      `${account}/sightline/2026/01/resource-access-paths.2026-01-31-2359.parquet`,
    );
    expect(hiveReportKey(target, "principal-access-summaries")).toBe(
      "sightline/hive/principal-access-summaries/customer_id=P123456-000000000042/account_id=210987654321/dt=2026-01-31/principal-access-summaries.parquet",
    );
  });

  it("put an Azure subscription's reports under reports/azure and sightline/hive/azure", () => {
    const azure = {
      ...target,
      provider: "azure" as const,
      accountId: "0b1f6471-1bf0-4dda-aec3-111122223333",
    };
    const prefix =
      "customers/P123456-000000000042/reports/azure/0b1f6471-1bf0-4dda-aec3-111122223333";
    expect(datedReportKey(azure, "principals", "csv")).toBe(
      `${prefix}/2026/01/principals.2026-01-31-2359.csv`,
    );
    expect(latestReportKey(azure, "manifest", "json")).toBe(
      `${prefix}/sightline/latest/manifest.latest.json`,
    );
    expect(hiveReportKey(azure, "principals")).toBe(
      "sightline/hive/azure/principals/customer_id=P123456-000000000042/account_id=0b1f6471-1bf0-4dda-aec3-111122223333/dt=2026-01-31/principals.parquet",
    );
    expect(() =>
      datedReportKey({ ...azure, provider: "gcp" as "azure" }, "principals", "csv"),
    ).toThrow(RangeError);
  });

  it("refuse identifiers that would move the key", () => {
    for (const customerId of ["", "..", "a/b", "a=b", "a b"]) {
      expect(() => datedReportKey({ ...target, customerId }, "principals", "csv")).toThrow(
        RangeError,
      );
      expect(() => hiveReportKey({ ...target, customerId }, "principals")).toThrow(RangeError);
    }
    expect(() => latestReportKey({ ...target, accountId: "../x" }, "principals", "csv")).toThrow(
      RangeError,
    );
  });
});

describe("delivery plan and manifest", () => {
  const reports: WrittenReport[] = [
    {
      type: "principals",
      rows: 3,
      files: [
        { format: "csv", path: "/tmp/p.csv", bytes: 10, sha256: sha("a"), rows: 3 },
        { format: "parquet", path: "/tmp/p.parquet", bytes: 20, sha256: sha("b"), rows: 3 },
      ],
    },
  ];

  it("puts each file under its dated key, its latest key and, for Parquet, its hive key", () => {
    const keysOf = (objects: { key: string }[]) => objects.map((o) => o.key);
    const plan = planReportObjects(reports, target);
    expect(keysOf(plan.dated)).toEqual([
      `${account}/2026/01/principals.2026-01-31-2359.csv`,
      `${account}/sightline/2026/01/principals.2026-01-31-2359.parquet`,
    ]);
    expect(keysOf(plan.latest)).toEqual([
      `${account}/latest/principals.latest.csv`,
      `${account}/sightline/latest/principals.latest.parquet`,
    ]);
    // k9's latest hive layout (CSV and Parquet), then Sightline's daily history.
    expect(keysOf(plan.hive)).toEqual([
      "hive/customer_id=P123456-000000000042/csp=aws/account_id=210987654321/file_type=csv_principals/principals.latest.csv",
      "hive/parquet/principals/customer_id=P123456-000000000042/csp=aws/account_id=210987654321/principals.latest.parquet",
      "sightline/hive/principals/customer_id=P123456-000000000042/account_id=210987654321/dt=2026-01-31/principals.parquet",
    ]);
    for (const key of keysOf(plan.hive).slice(0, 2))
      expect(
        [ATHENA_LOCATIONS.principals.csv.key, ATHENA_LOCATIONS.principals.parquet.key].some((k) =>
          k.test(key),
        ),
      ).toBe(true);
    const alone = planReportObjects(reports, { ...target, latest: false, hive: false });
    expect([alone.dated.length, alone.latest.length, alone.hive.length]).toEqual([2, 0, 0]);
    // Parquet written for hive alone is delivered only there.
    const csv = planReportObjects(reports, { ...target, formats: ["csv"] });
    expect(keysOf([...csv.dated, ...csv.latest, ...csv.hive])).toEqual([
      `${account}/2026/01/principals.2026-01-31-2359.csv`,
      `${account}/latest/principals.latest.csv`,
      "hive/customer_id=P123456-000000000042/csp=aws/account_id=210987654321/file_type=csv_principals/principals.latest.csv",
      "hive/parquet/principals/customer_id=P123456-000000000042/csp=aws/account_id=210987654321/principals.latest.parquet",
      "sightline/hive/principals/customer_id=P123456-000000000042/account_id=210987654321/dt=2026-01-31/principals.parquet",
    ]);
    expect(datedManifestKey(target)).toBe(
      `${account}/sightline/2026/01/manifest.2026-01-31-2359.json`,
    );
    expect(latestManifestKey(target)).toBe(`${account}/sightline/latest/manifest.latest.json`);
  });

  it("date the keys by the report minute when another analysis held the analysis's minute", () => {
    const next = { ...target, reportMinute: new Date("2026-02-01T00:00:00.000Z") };
    expect(datedReportKey(next, "principals", "csv")).toBe(
      `${account}/2026/02/principals.2026-02-01-0000.csv`,
    );
    // The hive partition stays the analysis's day.
    expect(hiveReportKey(next, "principals")).toContain("/dt=2026-01-31/");
  });

  it("lists every object with its size, SHA-256 and rows, and parses with its schema", () => {
    const objects = planReportObjects(reports, { ...target, latest: false, hive: false }).dated;
    const manifest = buildManifest({
      executionId: "ondemand-P123456-000000000042-210987654321-2026-01-31_AB12",
      target,
      reports,
      objects,
      warnings: [
        {
          code: "POLICY_UNREADABLE",
          message: "bucket policy denied",
          resourceArn: "arn:aws:s3:::x",
        },
      ],
    });
    expect(Manifest.parse(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
    expect(manifest).toMatchObject({
      analysisTime: "2026-01-31T23:59:58.500Z",
      reports: [{ type: "principals", rows: 3 }],
      objects: [
        {
          key: `${account}/2026/01/principals.2026-01-31-2359.csv`,
          bytes: 10,
          sha256: sha("a"),
          reportType: "principals",
          format: "csv",
          rows: 3,
        },
        {
          key: `${account}/sightline/2026/01/principals.2026-01-31-2359.parquet`,
          bytes: 20,
          sha256: sha("b"),
          reportType: "principals",
          format: "parquet",
          rows: 3,
        },
      ],
    });
    expect(() =>
      Manifest.parse({ ...manifest, objects: [{ ...manifest.objects[0], sha256: "x" }] }),
    ).toThrow();
  });
});
