import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { runAnalyze, runAuthorize } from "../src/index.ts";

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
  RoleDetailList: [],
  Policies: [],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-cli-"));
  await writeFile(path.join(dir, "gaad.json"), JSON.stringify(gaad));
  await mkdir(path.join(dir, "policies"));
  await writeFile(
    path.join(dir, "policies", "buckets.json"),
    JSON.stringify({
      "arn:aws:s3:::reports": {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: "444455556666" },
            Action: "s3:GetObject",
            Resource: "arn:aws:s3:::reports/*",
          },
        ],
      },
    }),
  );
});

describe("sightline analyze", () => {
  it("writes the four reports in CSV", async () => {
    const out = path.join(dir, "out-csv");
    const counts = await runAnalyze({
      authorizationDetails: [path.join(dir, "gaad.json")],
      resourcePolicies: path.join(dir, "policies"),
      format: "csv",
      out,
      progress: () => {},
    });
    expect(counts.principals).toBe(1);
    const access = (await readFile(path.join(out, "principal-access.csv"), "utf8"))
      .trim()
      .split("\n");
    expect(access[0]).toBe(
      "principalArn,principalName,principalType,service,capability,resourceArn,conditional,exceptResources",
    );
    expect(access.slice(1)).toEqual([
      "arn:aws:iam::111122223333:user/alice,alice,IAMUser,S3,read-data,arn:aws:s3:::reports/*,false,",
    ]);
    const resourceAccess = await readFile(path.join(out, "resource-access.csv"), "utf8");
    expect(resourceAccess).toContain(
      "arn:aws:s3:::reports,S3Bucket,S3,read-data,444455556666,Account,false,false",
    );
  });

  it("writes JSON arrays that parse", async () => {
    const out = path.join(dir, "out-json");
    await runAnalyze({
      authorizationDetails: [path.join(dir, "gaad.json")],
      format: "json",
      out,
      progress: () => {},
    });
    const principals = JSON.parse(await readFile(path.join(out, "principals.json"), "utf8"));
    expect(principals).toEqual([
      expect.objectContaining({ principalName: "alice", iamAdmin: "no" }),
    ]);
    expect(JSON.parse(await readFile(path.join(out, "resources.json"), "utf8"))).toEqual([]);
  });
});

describe("sightline authorize", () => {
  it("allows what the inline policy grants and denies the rest", async () => {
    const base = {
      authorizationDetails: [path.join(dir, "gaad.json")],
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
    const ok = await run(bin, [...args, "--resource", "arn:aws:s3:::reports/a"]);
    expect(ok.stdout).toContain("decision: allowed");
    await expect(run(bin, [...args, "--resource", "arn:aws:s3:::other/a"])).rejects.toMatchObject({
      code: 1,
    });
    await expect(run(bin, ["analyze", "--authorization-details", "x.json"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--out is required"),
    });
  });
});
