import { credentialReportCsv, type FakeAccountModel, smallAccount } from "@sightline/aws/testing";
import { getAnalysisResult, listAccessChanges, listFindings, rawQuery } from "@sightline/db";
import { AccessChange } from "@sightline/domain";
import { Manifest } from "@sightline/reports";
import { afterAll, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const arnOf = (name: string) => `arn:aws:iam::${ACCOUNT}:${name}`;
const OUTSIDE = "444455556666";
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
const [usedAgo2, changedAgo20, rotatedAgo10, usedAgo1] = [2, 20, 10, 1].map(daysAgo);
const credentials = (aliceKeyActive: boolean) =>
  credentialReportCsv([
    {
      user: "alice",
      arn: arnOf("user/alice"),
      password_enabled: "true",
      password_last_used: usedAgo2,
      password_last_changed: changedAgo20,
      access_key_1_active: String(aliceKeyActive),
      access_key_1_last_rotated: rotatedAgo10,
      access_key_1_last_used_date: usedAgo1,
    },
    { user: "bob", arn: arnOf("user/bob") },
  ]);

// The small account, plus a role that reads nothing yet and a bucket without a policy; the
// test changes it between analyses as an administrator would.
const base = smallAccount.model;
const details = base.authorizationDetails ?? {};
const analyst = {
  RoleName: "Analyst",
  RoleId: "AROAANALYST",
  Arn: arnOf("role/Analyst"),
  Path: "/",
  AssumeRolePolicyDocument: {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
    ],
  },
  RolePolicyList: [] as object[],
  AttachedManagedPolicies: [] as object[],
  Tags: [],
};
const model: { -readonly [K in keyof FakeAccountModel]: FakeAccountModel[K] } = {
  ...base,
  credentialReportCsv: credentials(true),
  authorizationDetails: {
    ...details,
    RoleDetailList: [...(details.RoleDetailList ?? []), analyst],
  },
  buckets: [...(base.buckets ?? []), { name: "archive" }],
};

/** What an administrator does between the first and second analysis. */
function changeTheAccount() {
  const users = (details.UserDetailList ?? []).map((user) =>
    user.UserName === "bob"
      ? {
          ...user,
          AttachedManagedPolicies: [
            {
              PolicyName: "AdministratorAccess",
              PolicyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
            },
          ],
        }
      : user,
  );
  const reader = {
    ...analyst,
    RolePolicyList: [
      {
        PolicyName: "read-logs",
        PolicyDocument: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "arn:aws:s3:::logs/*" }],
        },
      },
    ],
  };
  model.authorizationDetails = {
    ...details,
    UserDetailList: users,
    RoleDetailList: [...(details.RoleDetailList ?? []), reader],
  };
  model.buckets = (base.buckets ?? [])
    .map((bucket) =>
      bucket.name === "logs" ? { ...bucket, tags: { Confidentiality: "Confidential" } } : bucket,
    )
    .concat({
      name: "archive",
      policy: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: `arn:aws:iam::${OUTSIDE}:root` },
            Action: "s3:GetObject",
            Resource: "arn:aws:s3:::archive/*",
          },
        ],
      },
    });
  model.credentialReportCsv = credentials(false);
}

const pipeline = await startPipeline({ model });
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const inbox = (key: string) =>
  fake.objects.get(`${smallAccount.INBOX_BUCKET}/${key}`)?.body.toString("utf8") ?? "";
const lines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("what changed since the previous analysis", async () => {
  const partner = await pipeline.partner({ featureFlags: { latestReportEnabled: true } });
  const account = { customerId: partner.customerId, accountId: ACCOUNT };
  const analyse = async () => {
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: ACCOUNT,
      kind: "ondemand",
    });
    const execution = await pipeline.finished(executionId);
    expect(execution.status, execution.failureMessage ?? "").toBe("succeeded");
    const key = (type: string) =>
      execution.reportKeys.find((k) => k.includes("/sightline/latest/") && k.includes(`/${type}.`));
    return {
      execution,
      changes: lines(inbox(key("access-changes") ?? "")),
      findings: lines(inbox(key("findings") ?? "")),
      manifest: Manifest.parse(JSON.parse(inbox(execution.reportKeys.at(-1) ?? ""))),
    };
  };

  const first = await analyse();
  changeTheAccount();
  const second = await analyse();
  const third = await analyse();

  it("takes the first analysis as the baseline: no changes, findings", async () => {
    expect(first.changes).toEqual([]);
    expect(first.manifest.reports).toEqual(
      expect.arrayContaining([{ type: "access-changes", rows: 0 }]),
    );
    expect(await getAnalysisResult(ctx.db, first.execution.executionId)).toMatchObject({
      previousExecutionId: null,
      changes: 0,
    });
    const kinds = new Set(
      first.findings.map((f) => (f.finding_info as { types: string[] }).types[0]),
    );
    expect(kinds).toEqual(new Set(["iam-admin", "unused-principal", "external-access"]));
  });

  it("delivers exactly the changes made, each as the domain describes it", () => {
    const changes = second.changes.map((row) => ({
      kind: row.kind,
      principal: row.principal_arn,
      capability: row.access_capability,
      resource: row.resource_arn,
    }));
    const distinct = new Set(changes.map((c) => `${c.kind} ${c.principal}`));
    expect(distinct).toEqual(
      new Set([
        `iam-admin-gained ${arnOf("user/bob")}`,
        `access-gained ${arnOf("user/bob")}`,
        `access-gained ${arnOf("role/Analyst")}`,
        `confidential-access-gained ${arnOf("role/Analyst")}`,
        // As an admin, bob now reaches the confidential buckets too.
        `confidential-access-gained ${arnOf("user/bob")}`,
        `external-access-gained ${OUTSIDE}`,
        `credential-deactivated ${arnOf("user/alice")}`,
      ]),
    );
    expect(changes).toEqual(
      expect.arrayContaining([
        {
          kind: "access-gained",
          principal: arnOf("role/Analyst"),
          capability: "read-data",
          resource: "arn:aws:s3:::logs/*",
        },
        {
          kind: "confidential-access-gained",
          principal: arnOf("role/Analyst"),
          capability: "read-data",
          resource: "arn:aws:s3:::logs",
        },
        {
          kind: "external-access-gained",
          principal: OUTSIDE,
          capability: "read-data",
          resource: "arn:aws:s3:::archive",
        },
        {
          kind: "credential-deactivated",
          principal: arnOf("user/alice"),
          capability: "access_key_1",
          resource: "",
        },
      ]),
    );
    const admin = second.changes.find((row) => row.kind === "iam-admin-gained");
    expect(admin).toMatchObject({ before: "not admin", after: "admin", change: "changed" });
    expect(((admin?.granted_by ?? []) as string[]).join(" ")).toContain("AdministratorAccess");
    expect(second.changes.find((row) => row.kind === "external-access-gained")).toMatchObject({
      reach: "external-account",
      confidential: false,
    });
    const listed = second.manifest.reports.find((r) => r.type === "access-changes");
    expect(listed?.rows).toBe(second.changes.length);
  });

  it("stores the same changes, which the store lists since a time", async () => {
    const page = await listAccessChanges(ctx.db, {
      ...account,
      since: second.execution.startedAt ?? new Date(0),
      limit: 10_000,
    });
    expect(page.changes.map((c) => AccessChange.parse(c.change).changeId)).toEqual(
      second.changes.map((row) => row.change_id),
    );
    expect(await getAnalysisResult(ctx.db, second.execution.executionId)).toMatchObject({
      previousExecutionId: first.execution.executionId,
      changes: second.changes.length,
    });
  });

  it("finds the new admin and the new outside access, keeping the findings that still hold", () => {
    const byId = (rows: Record<string, unknown>[]) =>
      new Map(rows.map((row) => [(row.finding_info as { uid: string }).uid, row]));
    const before = byId(first.findings);
    const after = byId(second.findings);
    const newOnes = [...after.values()].filter(
      (row) => !before.has((row.finding_info as { uid: string }).uid),
    );
    expect(
      newOnes.map((row) => [
        (row.finding_info as { types: string[] }).types[0],
        (row.resources as { uid: string }[])[0]?.uid,
        row.activity_id,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["iam-admin", arnOf("user/bob"), 1],
        ["external-access", "arn:aws:s3:::archive", 1],
      ]),
    );
    for (const [uid, row] of after)
      if (before.has(uid) && row.status_id !== 4)
        expect(row).toMatchObject({ activity_id: 2, status_id: 2 });
  });

  it("reports nothing when nothing changed; the findings keep their IDs with a new last-seen time", async () => {
    expect(third.changes).toEqual([]);
    const ids = (rows: Record<string, unknown>[]) =>
      rows
        .filter((row) => row.status_id !== 4)
        .map((row) => (row.finding_info as { uid: string }).uid)
        .sort();
    expect(ids(third.findings)).toEqual(ids(second.findings));
    const stored = await listFindings(ctx.db, { ...account, status: "active", limit: 1000 });
    expect(stored.findings.length).toBe(ids(third.findings).length);
    for (const finding of stored.findings) {
      expect(finding.lastSeen.getTime()).toBe(third.execution.startedAt?.getTime());
      expect(finding.firstSeen.getTime()).toBeLessThan(finding.lastSeen.getTime());
    }
  });

  it("re-analyses the previous snapshot when the engine changed, so an upgrade is no change", async () => {
    const previous = third.execution.executionId;
    await ctx.db.execute(
      rawQuery(
        "update analysis_results set results_version = 'engine-of-last-year' where execution_id = $1",
        [previous],
      ),
    );
    const fourth = await analyse();
    expect(fourth.changes).toEqual([]);
    expect(fourth.execution.warnings.map((w) => w.code)).not.toContain("changes-baseline");
    const stored = await getAnalysisResult(ctx.db, previous);
    expect(stored?.resultsVersion).not.toBe("engine-of-last-year");
    expect(stored).toMatchObject({
      changes: 0,
      principals: fourth.manifest.reports.find((r) => r.type === "principals")?.rows,
    });

    // Without its snapshot, the previous analysis cannot be redone: a new baseline, said so.
    const last = fourth.execution.executionId;
    await ctx.db.execute(
      rawQuery(
        "update analysis_results set results_version = 'engine-of-last-year' where execution_id = $1",
        [last],
      ),
    );
    await ctx.db.execute(rawQuery("delete from account_snapshots where execution_id = $1", [last]));
    const fifth = await analyse();
    expect(fifth.changes).toEqual([]);
    expect(fifth.execution.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "changes-baseline" })]),
    );
    expect(await getAnalysisResult(ctx.db, fifth.execution.executionId)).toMatchObject({
      previousExecutionId: null,
    });
  });
});
