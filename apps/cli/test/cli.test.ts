import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnalyzeCommand, loadSnapshots, runAnalyze, runAuthorize } from "../src/index.ts";
import { REPORTS_POLICY } from "./one-account.ts";
import {
  ACCOUNT_A,
  ACCOUNT_B,
  ALICE,
  accountA,
  accountB,
  HOP,
  TARGET,
  writeTwoAccounts,
} from "./two-accounts.ts";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");

const gaad = {
  UserDetailList: [
    {
      UserName: "alice",
      UserId: "AIDAALICE",
      Arn: "arn:aws:iam::111122223333:user/alice",
      Path: "/",
      GroupList: [],
      AttachedManagedPolicies: [],
      UserPolicyList: [
        {
          PolicyName: "read-reports",
          PolicyDocument: encodeURIComponent(
            JSON.stringify({
              Version: "2012-10-17",
              Statement: [
                { Effect: "Allow", Action: "s3:GetObject", Resource: "arn:aws:s3:::reports/*" },
              ],
            }),
          ),
        },
      ],
    },
  ],
  GroupDetailList: [],
  RoleDetailList: [
    {
      RoleName: "deployer",
      RoleId: "AROADEPLOYER",
      Arn: "arn:aws:iam::111122223333:role/deployer",
      Path: "/",
      AssumeRolePolicyDocument: encodeURIComponent(
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            {
              Effect: "Allow",
              Principal: { Service: "codebuild.amazonaws.com" },
              Action: "sts:AssumeRole",
            },
          ],
        }),
      ),
      RolePolicyList: [],
      AttachedManagedPolicies: [],
      Tags: [{ Key: "BusinessUnit", Value: "Payments" }],
      RoleLastUsed: { LastUsedDate: "2026-02-01T10:00:00Z", Region: "us-east-1" },
    },
  ],
  Policies: [],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-cli-"));
  await writeFile(path.join(dir, "gaad.json"), JSON.stringify(gaad));
  // `aws s3api list-buckets` output: the account owns these buckets.
  await writeFile(
    path.join(dir, "buckets.json"),
    JSON.stringify({ Buckets: [{ Name: "reports" }, { Name: "other" }] }),
  );
  await mkdir(path.join(dir, "policies"));
  await writeFile(
    path.join(dir, "policies", "buckets.json"),
    JSON.stringify({ "arn:aws:s3:::reports": REPORTS_POLICY }),
  );
});

const analysisTime = new Date("2026-03-04T07:15:00Z");
const analyze = (out: string, formats: AnalyzeCommand["formats"]) =>
  runAnalyze({
    authorizationDetails: [path.join(dir, "gaad.json")],
    resourcePolicies: path.join(dir, "policies"),
    formats,
    out: path.join(dir, out),
    analysisTime,
    progress: () => {},
  });
const lines = async (file: string) => (await readFile(file, "utf8")).trimEnd().split("\r\n");

describe("sightline analyze", () => {
  it("writes the four reports as k9's CSVs: k9's columns, in k9's value formats", async () => {
    const counts = await analyze("out-csv", ["csv"]);
    expect(counts).toEqual({
      principals: 2,
      resources: 2,
      "principal-access-summaries": 1,
      "resource-access-summaries": 3,
      "resource-access-paths": 0,
      issues: 0,
    });
    const out = path.join(dir, "out-csv");
    // k9's CSVs: k9's columns only, in k9's value formats (True/False, times with +00:00).
    expect(await lines(path.join(out, "principals.csv"))).toEqual([
      "analysis_time,principal_name,principal_arn,principal_type,principal_is_iam_admin,principal_last_used,principal_tag_business_unit,principal_tag_environment,principal_tag_used_by,principal_tags,password_last_used,password_last_rotated,password_state,access_key_1_last_used,access_key_1_last_rotated,access_key_1_state,access_key_2_last_used,access_key_2_last_rotated,access_key_2_state",
      "2026-03-04T07:15:00.000000+00:00,alice,arn:aws:iam::111122223333:user/alice,IAMUser,False,,,,,{},,,,,,,,,",
      '2026-03-04T07:15:00.000000+00:00,deployer,arn:aws:iam::111122223333:role/deployer,IAMRole,False,2026-02-01 10:00:00+00:00,Payments,,,"{""BusinessUnit"":""Payments""}",,,,,,,,,',
    ]);
    expect(await lines(path.join(out, "principal-access-summaries.csv"))).toEqual([
      "analysis_time,principal_name,principal_arn,principal_type,principal_tags,service_name,access_capability,resource_arn",
      // The pattern `reports/*` names the bucket it covers, as the service writes it.
      "2026-03-04T07:15:00.000000+00:00,alice,arn:aws:iam::111122223333:user/alice,IAMUser,{},S3,read-data,arn:aws:s3:::reports",
    ]);
    const resourceAccess = await lines(path.join(out, "resource-access-summaries.csv"));
    expect(resourceAccess[0]).toBe(
      "analysis_time,service_name,resource_name,resource_arn,access_capability,principal_type,principal_name,principal_arn,resource_tag_confidentiality",
    );
    expect(resourceAccess.slice(1).sort()).toEqual([
      "2026-03-04T07:15:00.000000+00:00,S3,reports,arn:aws:s3:::reports,read-data,Account,444455556666,444455556666,",
      "2026-03-04T07:15:00.000000+00:00,S3,reports,arn:aws:s3:::reports,read-data,IAMUser,alice,arn:aws:iam::111122223333:user/alice,",
      "2026-03-04T07:15:00.000000+00:00,STS,deployer,arn:aws:iam::111122223333:role/deployer,use-resource,Service,codebuild.amazonaws.com,codebuild.amazonaws.com,",
    ]);
    expect(await lines(path.join(out, "resources.csv"))).toEqual([
      "analysis_time,resource_name,resource_arn,resource_type,resource_tag_business_unit,resource_tag_environment,resource_tag_owner,resource_tag_confidentiality,resource_tag_integrity,resource_tag_availability,resource_tags",
      '2026-03-04T07:15:00.000000+00:00,deployer,arn:aws:iam::111122223333:role/deployer,IAMRole,Payments,,,,,,"{""BusinessUnit"":""Payments""}"',
      "2026-03-04T07:15:00.000000+00:00,reports,arn:aws:s3:::reports,S3Bucket,,,,,,,{}",
    ]);
    expect(JSON.parse(await readFile(path.join(out, "issues.json"), "utf8"))).toEqual([]);
    // The access paths are Sightline's full rows: Parquet when only CSV is asked, as delivered.
    expect((await readdir(out)).filter((name) => name.startsWith("resource-access-paths"))).toEqual(
      ["resource-access-paths.parquet"],
    );
  });

  it("writes JSON Lines and Parquet beside CSV in one run", async () => {
    await analyze("out-all", ["jsonl", "parquet", "csv"]);
    const out = path.join(dir, "out-all");
    const principals = (await readFile(path.join(out, "principals.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(principals).toEqual([
      expect.objectContaining({
        principal_name: "alice",
        principal_is_iam_admin: false,
        principal_last_used: null,
      }),
      expect.objectContaining({
        principal_name: "deployer",
        principal_tags: { BusinessUnit: "Payments" },
      }),
    ]);
    const parquet = await readFile(path.join(out, "resource-access-summaries.parquet"));
    expect(parquet.subarray(0, 4).toString()).toBe("PAR1");
    expect(await readFile(path.join(out, "resources.csv"), "utf8")).toContain(
      "arn:aws:s3:::reports",
    );
  });

  it("reports the way to an IAM admin and the paths into roles other accounts can assume", async () => {
    // `target` in account A becomes an IAM admin; B's `hop` can assume it, alice can assume hop.
    const admin = structuredClone(accountA);
    const [target] = admin.RoleDetailList;
    target?.RolePolicyList.push({
      PolicyName: "iam-admin",
      PolicyDocument: encodeURIComponent(
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "iam:*", Resource: "*" }],
        }),
      ),
    });
    const files = [path.join(dir, "admin-a.json"), path.join(dir, "admin-b.json")];
    await writeFile(files[0] as string, JSON.stringify(admin));
    await writeFile(files[1] as string, JSON.stringify(accountB));
    const out = path.join(dir, "out-paths");
    const counts = await runAnalyze({
      authorizationDetails: files,
      formats: ["csv", "jsonl"],
      out,
      analysisTime,
      progress: () => {},
    });
    expect(counts["resource-access-paths"]).toBe(2);
    // Sightline's columns are in the full rows (JSON Lines here), not in k9's CSV.
    const rows = (await readFile(path.join(out, "principals.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const rowOf = (arn: string) => rows.find((row) => row.principal_arn === arn);
    // iam_admin_path: alice's chain to the admin; the admin itself has none, but the policy
    // that makes it one and the IAM actions it allows.
    expect(rowOf(ALICE)).toMatchObject({
      iam_admin_path: [ALICE, HOP, TARGET],
      iam_admin_granted_by: [],
      iam_admin_actions: [],
    });
    expect(rowOf(TARGET)).toMatchObject({
      principal_name: "target",
      principal_is_iam_admin: true,
      iam_admin_path: [],
      iam_admin_granted_by: [{ policyType: "inline", policyName: "iam-admin", sids: ["#0"] }],
      iam_admin_actions: expect.arrayContaining([expect.stringMatching(/^iam:/)]),
    });
    const paths = (await readFile(path.join(out, "resource-access-paths.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(paths).toEqual([
      expect.objectContaining({ resource_arn: TARGET, reason: "iam-admin", path_nodes: [HOP] }),
      expect.objectContaining({
        resource_arn: TARGET,
        path_nodes: [HOP, ALICE],
        paths_complete: true,
      }),
    ]);
    expect(TARGET).toContain(ACCOUNT_A);
  });

  it("prints the rows of --show with the policies that grant them", async () => {
    const printed: string[] = [];
    await runAnalyze({
      authorizationDetails: [path.join(dir, "gaad.json")],
      resourcePolicies: path.join(dir, "policies"),
      formats: ["jsonl"],
      out: path.join(dir, "out-show"),
      analysisTime,
      progress: () => {},
      show: ["alice", "arn:aws:s3:::reports"],
      print: (line) => printed.push(line),
    });
    expect(printed.sort()).toEqual([
      "arn:aws:iam::111122223333:user/alice: S3 read-data on arn:aws:s3:::reports/*; granted by: inline 'read-reports' [#0]",
      "arn:aws:s3:::reports: 444455556666 (Account) S3 read-data; granted by: resource policy of arn:aws:s3:::reports [#0]",
      "arn:aws:s3:::reports: arn:aws:iam::111122223333:user/alice (IAMUser) S3 read-data; granted by: inline 'read-reports' [#0]",
    ]);
  });

  it("refuses an unknown format", async () => {
    await expect(
      run(bin, [
        "analyze",
        "--authorization-details",
        "x.json",
        "--format",
        "csv,xls",
        "--out",
        dir,
      ]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("got 'xls'") });
  });
});

describe("sightline authorize", () => {
  it("allows what the inline policy grants and denies the rest", async () => {
    const base = {
      authorizationDetails: [path.join(dir, "gaad.json")],
      buckets: [path.join(dir, "buckets.json")],
      principal: "arn:aws:iam::111122223333:user/alice",
      context: {},
    };
    const allowed = await runAuthorize({
      ...base,
      action: "s3:GetObject",
      resource: "arn:aws:s3:::reports/q1.csv",
    });
    expect(allowed.decision).toBe("allowed");
    expect(allowed.statements).toEqual([
      expect.objectContaining({ policyName: "read-reports", effect: "Allow" }),
    ]);
    const denied = await runAuthorize({
      ...base,
      action: "s3:PutObject",
      resource: "arn:aws:s3:::reports/q1.csv",
    });
    expect(denied.decision).toBe("implicit-deny");
  });

  it("without a bucket list, a bucket's owner is unknown: allowed only if alice's account owns it", async () => {
    const result = await runAuthorize({
      authorizationDetails: [path.join(dir, "gaad.json")],
      principal: "arn:aws:iam::111122223333:user/alice",
      context: {},
      action: "s3:GetObject",
      resource: "arn:aws:s3:::reports/q1.csv",
    });
    expect(result.decision).toBe("conditional");
    expect(result.conditions).toEqual([
      expect.objectContaining({
        operator: "ResourceOwner",
        key: "aws:ResourceAccount",
        values: ["111122223333"],
      }),
    ]);
  });

  it("runs as a command: exit 0 when allowed, 1 when denied, 2 on a usage error", async () => {
    const args = [
      "authorize",
      "--authorization-details",
      path.join(dir, "gaad.json"),
      "--principal",
      "arn:aws:iam::111122223333:user/alice",
      "--action",
      "s3:GetObject",
    ];
    const listed = [...args, "--buckets", path.join(dir, "buckets.json")];
    const ok = await run(bin, [...listed, "--resource", "arn:aws:s3:::reports/a"]);
    expect(ok.stdout).toContain("decision: allowed");
    await expect(run(bin, [...listed, "--resource", "arn:aws:s3:::other/a"])).rejects.toMatchObject(
      { code: 1 },
    );
    await expect(run(bin, [...args, "--resource", "arn:aws:s3:::reports/a"])).rejects.toMatchObject(
      {
        code: 1,
        stdout: expect.stringContaining("only if account 111122223333 owns the bucket"),
      },
    );
    await expect(run(bin, ["analyze", "--authorization-details", "x.json"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--out is required"),
    });
  });
});

describe("--buckets", () => {
  it("gives a list named after an account to that account, another to the first", async () => {
    const where = await mkdtemp(path.join(tmpdir(), "sightline-buckets-"));
    const { a, b } = await writeTwoAccounts(where);
    await writeFile(path.join(where, `${ACCOUNT_B}.json`), JSON.stringify(["b-data"]));
    await writeFile(path.join(where, "mine.json"), JSON.stringify(["arn:aws:s3:::a-data"]));
    const snapshots = await loadSnapshots({
      authorizationDetails: [a, b],
      buckets: [path.join(where, `${ACCOUNT_B}.json`), path.join(where, "mine.json")],
    });
    expect(snapshots.map((s) => s.buckets)).toEqual([["arn:aws:s3:::a-data"], ["b-data"]]);
    await writeFile(path.join(where, "bad.json"), JSON.stringify({ Buckets: [{ Name: 1 }] }));
    await expect(
      loadSnapshots({ authorizationDetails: [a], buckets: [path.join(where, "bad.json")] }),
    ).rejects.toThrow("expected a list of bucket names or ARNs");
  });
});

describe("sightline --help", () => {
  it("prints the usage and exits 0; no command at all exits 2", async () => {
    for (const args of [["--help"], ["-h"], ["help"], ["analyze", "--help"]]) {
      const { stdout } = await run(bin, args);
      expect(stdout).toContain("usage:");
    }
    await expect(run(bin, [])).rejects.toMatchObject({ code: 2 });
  });
});
