import { createHash } from "node:crypto";
import { credentialReportCsv, smallAccount } from "@sightline/aws-fake";
import { latestSnapshot } from "@sightline/db";
import { K9_COLUMN_COUNT, Manifest, PRINCIPAL_ACCESS_COLUMNS } from "@sightline/reports";
import {
  athenaCsvKey,
  athenaParquetKey,
  dashboardQuery,
  datadogSearch,
  expectK9Compatible,
  expectK9Layout,
  splunkKata2UnusedPrincipals,
  splunkKata3StaleCredentials,
} from "@sightline/reports/k9-contract";
import { afterAll, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

const carol = {
  UserName: "carol",
  UserId: "AIDACAROL",
  Arn: `arn:aws:iam::${smallAccount.ACCOUNT_ID}:user/carol`,
  Path: "/",
  GroupList: [],
  AttachedManagedPolicies: [],
  UserPolicyList: [
    {
      PolicyName: "read-one-bucket",
      PolicyDocument: {
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: "s3:GetObject", Resource: "arn:aws:s3:::reports/*" },
        ],
      },
    },
  ],
};
const model = smallAccount.model;
const details = model.authorizationDetails;
const arnOf = (name: string) => `arn:aws:iam::${smallAccount.ACCOUNT_ID}:${name}`;
// Credentials as IAM reports them, relative to today: alice signs in and uses her key; bob's
// password was deleted (IAM keeps its last use) and his only key is deactivated; carol has none.
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
const credentials = credentialReportCsv([
  { user: "<root_account>", arn: arnOf("root"), password_last_used: daysAgo(3) },
  {
    user: "alice",
    arn: arnOf("user/alice"),
    password_enabled: "true",
    password_last_used: daysAgo(10),
    password_last_changed: daysAgo(200),
    access_key_1_active: "true",
    access_key_1_last_rotated: daysAgo(30),
    access_key_1_last_used_date: daysAgo(5),
  },
  {
    user: "bob",
    arn: arnOf("user/bob"),
    password_last_used: daysAgo(400),
    access_key_1_last_rotated: daysAgo(500),
  },
  { user: "carol", arn: arnOf("user/carol") },
]);
const pipeline = await startPipeline({
  model: {
    ...model,
    credentialReportCsv: credentials,
    authorizationDetails: {
      ...details,
      UserDetailList: [...(details?.UserDetailList ?? []), carol],
    },
  },
});
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const inbox = (key: string) => fake.objects.get(`${smallAccount.INBOX_BUCKET}/${key}`);

describe("an analysis, end to end through the fake AWS", () => {
  it("assumes the role, collects, analyses and delivers every report to the partner's inbox", async () => {
    const partner = await pipeline.partner({
      featureFlags: { latestReportEnabled: true, hiveEnabled: true },
    });
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const execution = await pipeline.finished(executionId);
    expect(execution).toMatchObject({ status: "succeeded", failureCode: null });

    const keys = execution.reportKeys;
    const prefix = `customers/${partner.customerId}/reports/aws/${smallAccount.ACCOUNT_ID}`;
    const stamp = execution.startedAt
      ?.toISOString()
      .slice(0, 16)
      .replace("T", "-")
      .replace(":", "");
    const types = [
      "principals",
      "resources",
      "principal-access-summaries",
      "resource-access-summaries",
    ] as const;
    for (const type of types) {
      // The CSVs in the account's folder, the full rows (JSON Lines) in its sightline/ folder.
      for (const [folder, ext] of [
        [prefix, "csv"],
        [`${prefix}/sightline`, "jsonl"],
      ]) {
        expect(keys).toContain(
          `${folder}/${stamp?.slice(0, 4)}/${stamp?.slice(5, 7)}/${type}.${stamp}.${ext}`,
        );
        expect(keys).toContain(`${folder}/latest/${type}.latest.${ext}`);
      }
      const day = stamp?.slice(0, 10);
      expect(keys).toContain(
        `sightline/hive/${type}/customer_id=${partner.customerId}/account_id=${smallAccount.ACCOUNT_ID}/dt=${day}/${type}.parquet`,
      );
    }
    const manifestKey = keys.at(-1) ?? "";
    expect(manifestKey).toMatch(/manifest\.latest\.json$/);

    // Every object is in the inbox, encrypted with the partner's key, by Sightline's own principal.
    for (const key of keys) {
      const object = inbox(key);
      expect(object, key).toBeDefined();
      expect(object?.headers["x-amz-server-side-encryption"]).toBe("aws:kms");
      expect(object?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(
        smallAccount.INBOX_KEY_ARN,
      );
      expect(object?.accessKeyId).toBe(fake.serviceCredentials.accessKeyId);
      // A file already sent is copied within the inbox (latest, hive), not sent a second time;
      // the Parquet written for hive alone is first sent under its k9 hive key (the access
      // paths, which k9 has no table of, under Sightline's).
      const copied = object?.headers["x-amz-copy-source"] !== undefined;
      const again =
        (key.includes("/latest/") && !key.includes("/manifest.")) ||
        key.startsWith("hive/customer_id=") ||
        (key.startsWith("sightline/hive/") &&
          !/\/(resource-access-paths|access-changes|findings)\//.test(key));
      expect(copied, key).toBe(again);
    }

    // The dated manifest lists the dated objects, the latest one the latest copies, each with
    // its size and SHA-256; the hive copies (replaced by a later run of the day) are in neither.
    const datedManifestKey = keys.find((k) => k.endsWith(`/manifest.${stamp}.json`)) ?? "";
    for (const [key, listed] of [
      [datedManifestKey, keys.filter((k) => k.includes(`.${stamp}.`) && !k.includes("/manifest."))],
      [manifestKey, keys.filter((k) => k.includes("/latest/") && !k.includes("/manifest."))],
    ] as const) {
      const manifest = Manifest.parse(JSON.parse(inbox(key)?.body.toString("utf8") ?? "{}"));
      expect(manifest.executionId).toBe(executionId);
      expect(manifest.objects.map((o) => o.key).sort()).toEqual([...listed].sort());
      for (const object of manifest.objects) {
        const body = inbox(object.key)?.body ?? Buffer.alloc(0);
        expect(body.length).toBe(object.bytes);
        expect(createHash("sha256").update(body).digest("hex")).toBe(object.sha256);
      }
    }
    // k9's hive tables (latest CSV and Parquet of its four reports), Sightline's daily history.
    expect(keys.filter((k) => k.startsWith("hive/"))).toHaveLength(8);
    expect(keys.filter((k) => k.startsWith("sightline/hive/"))).toHaveLength(7);
    for (const type of types) {
      const parts = { customerId: partner.customerId, accountId: smallAccount.ACCOUNT_ID, type };
      expect(keys).toContain(athenaCsvKey(parts));
      expect(keys).toContain(athenaParquetKey(parts));
    }

    // What k9's integrations (Datadog, Splunk, k9-cli, Athena) read: k9's CSVs, k9's layout.
    expectK9Layout(keys);
    const k9Csvs = keys.filter((k) => k.endsWith(".csv"));
    expect(k9Csvs).toHaveLength(12);
    for (const key of k9Csvs) {
      const type = types.find((t) => key.includes(`/${t}.`)) ?? "";
      expectK9Compatible({ type, csvText: inbox(key)?.body.toString("utf8") ?? "", key });
    }

    // Rows of the known account: carol may read objects of one bucket, and the row names it.
    const access = inbox(
      keys.find((k) => k.endsWith(`principal-access-summaries.${stamp}.csv`)) ?? "",
    )
      ?.body.toString("utf8")
      .split("\r\n");
    // k9's CSV: exactly k9's columns; Sightline's full rows are in the sightline/ folder.
    const k9Columns = PRINCIPAL_ACCESS_COLUMNS.slice(
      0,
      K9_COLUMN_COUNT["principal-access-summaries"],
    );
    expect(access?.[0]).toBe(k9Columns.map((c) => c.name).join(","));
    // The access paths: who reaches the admin role, and who outside the account comes in.
    const paths = inbox(keys.find((k) => k.endsWith(`resource-access-paths.${stamp}.jsonl`)) ?? "")
      ?.body.toString("utf8")
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { resource_arn: string; reason: string; path_nodes: string[] },
      );
    const account = smallAccount.ACCOUNT_ID;
    expect(
      paths?.map(({ resource_arn, reason, path_nodes }) => ({ resource_arn, reason, path_nodes })),
    ).toEqual(
      expect.arrayContaining([
        {
          resource_arn: `arn:aws:iam::${account}:role/Deployer`,
          reason: "iam-admin",
          path_nodes: ["ec2.amazonaws.com"],
        },
        {
          resource_arn: smallAccount.AUDITOR_ROLE_ARN,
          reason: "trusted-by-other-accounts",
          path_nodes: ["999999999999"],
        },
      ]),
    );
    expect(keys).toContain(
      `sightline/hive/resource-access-paths/customer_id=${partner.customerId}/account_id=${account}/dt=${stamp?.slice(0, 10)}/resource-access-paths.parquet`,
    );

    // A bucket without a bucket policy has its rows too: who reaches it through identity policies.
    const logs = (
      inbox(keys.find((k) => k.endsWith(`resource-access-summaries.${stamp}.csv`)) ?? "")
        ?.body.toString("utf8")
        .split("\r\n") ?? []
    ).filter((line) => line.includes(",arn:aws:s3:::logs,"));
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/,S3,logs,arn:aws:s3:::logs,read-data,IAMRole,Deployer,/),
      ]),
    );

    const rows = access?.filter((line) => line.includes(",carol,")) ?? [];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/,S3,read-data,arn:aws:s3:::reports$/);
    const full = inbox(
      keys.find((k) => k.endsWith(`principal-access-summaries.${stamp}.jsonl`)) ?? "",
    )
      ?.body.toString("utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((row) => row.principal_name === "carol");
    expect(full).toEqual([
      expect.objectContaining({
        service_name: "S3",
        access_capability: "read-data",
        resource_arn: "arn:aws:s3:::reports",
        conditional: false,
        except_resources: [],
        resource_pattern: "arn:aws:s3:::reports/*",
        except_resources_this_scope_only: [],
      }),
    ]);
  });

  it("k9's dashboards and searches find in the rows what the account holds", async () => {
    const partner = await pipeline.partner({ featureFlags: { latestReportEnabled: true } });
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const execution = await pipeline.finished(executionId);
    expect(execution.status).toBe("succeeded");
    const latest = `customers/${partner.customerId}/reports/aws/${smallAccount.ACCOUNT_ID}`;
    const text = (key: string) => inbox(key)?.body.toString("utf8") ?? "";
    const principals = text(`${latest}/latest/principals.latest.csv`);
    const full = text(`${latest}/sightline/latest/principals.latest.jsonl`)
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { principal_arn: string; principal_is_iam_admin: boolean },
      );
    const arns = (events: Record<string, string>[]) => events.map((e) => e.principal_arn).sort();

    // Datadog: the IAM-admin widgets find every admin the report marks, and only those.
    const admins = full.filter((row) => row.principal_is_iam_admin).map((row) => row.principal_arn);
    expect(admins).toContain(arnOf("role/Deployer"));
    expect(
      arns(datadogSearch(dashboardQuery("principals", "principal_is_iam_admin"), principals)),
    ).toEqual(admins.sort());
    // "Inactive Password" and "Inactive Access Key 1": bob's deleted password and his key.
    expect(arns(datadogSearch(dashboardQuery("principals", "password_state"), principals))).toEqual(
      [arnOf("user/bob")],
    );
    expect(
      arns(datadogSearch(dashboardQuery("principals", "access_key_1_state"), principals)),
    ).toEqual([arnOf("user/bob")]);

    // Splunk kata 2: every principal never used or unused for 90 days (Deployer: 2024-05-01).
    const now = new Date();
    expect(splunkKata2UnusedPrincipals(principals, now)).toEqual(
      [
        arnOf("role/Deployer"),
        arnOf("role/SightlineAuditor"),
        arnOf("user/bob"),
        arnOf("user/carol"),
      ].sort(),
    );
    // Kata 3: alice's password changed 200 days ago, bob's key rotated 500 days ago.
    expect(splunkKata3StaleCredentials(principals, now)).toEqual([
      arnOf("user/alice"),
      arnOf("user/bob"),
    ]);
  });

  it("delivers k9's workbook beside the CSVs when asked, listed in the dated manifest", async () => {
    const partner = await pipeline.partner();
    pipeline.settings.analysis.workbook = true;
    try {
      const { executionId } = await triggerAnalysis(ctx, {
        owner: { kind: "partner", ...partner },
        accountId: smallAccount.ACCOUNT_ID,
        kind: "ondemand",
      });
      const execution = await pipeline.finished(executionId);
      expect(execution.status).toBe("succeeded");
      const keys = execution.reportKeys;
      const workbookKey = keys.find((k) => k.endsWith(".xlsx")) ?? "";
      expect(workbookKey).toMatch(
        new RegExp(
          `^customers/${partner.customerId}/reports/aws/${smallAccount.ACCOUNT_ID}/\\d{4}/\\d{2}/resource-access-audit\\.\\d{4}-\\d{2}-\\d{2}-\\d{4}\\.xlsx$`,
        ),
      );
      const stored = inbox(workbookKey);
      expect(stored?.body.subarray(0, 2).toString()).toBe("PK");
      const manifestKey = keys.find((k) => /\/sightline\/\d{4}\/\d{2}\/manifest\./.test(k)) ?? "";
      const manifest = Manifest.parse(
        JSON.parse(inbox(manifestKey)?.body.toString("utf8") ?? "{}"),
      );
      const listed = manifest.objects.find((o) => o.key === workbookKey);
      expect(listed).toMatchObject({
        reportType: "resource-access-audit",
        format: "xlsx",
        bytes: stored?.size,
        sha256: stored?.sha256,
      });
      // Its rows are the four reports' rows.
      const k9Rows = manifest.reports
        .filter((r) =>
          [
            "principals",
            "resources",
            "principal-access-summaries",
            "resource-access-summaries",
          ].includes(r.type),
        )
        .reduce((sum, r) => sum + r.rows, 0);
      expect(listed?.rows).toBe(k9Rows);
      expectK9Layout(keys);
    } finally {
      pipeline.settings.analysis.workbook = false;
    }
  });

  it("collects with the assumed role's credentials, and stores the snapshot", async () => {
    const partner = await pipeline.partner();
    const before = fake.calls.length;
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    expect((await pipeline.finished(executionId)).status).toBe("succeeded");
    const calls = fake.calls.slice(before);
    const assumeAt = calls.findIndex((c) => c.operation === "AssumeRole");
    expect(calls[assumeAt]?.accessKeyId).toBe(fake.serviceCredentials.accessKeyId);
    // Every call after AssumeRole but the delivery's (object calls in the inbox) is the role's.
    const collection = calls
      .slice(assumeAt + 1)
      .filter((c) => c.service !== "s3" || c.key === undefined);
    expect(collection.length).toBeGreaterThan(5);
    for (const call of collection)
      expect(call.accessKeyId).not.toBe(fake.serviceCredentials.accessKeyId);
    const snapshot = await latestSnapshot(ctx.db, {
      customerId: partner.customerId,
      accountId: smallAccount.ACCOUNT_ID,
    });
    expect(snapshot?.executionId).toBe(executionId);
  });
});
