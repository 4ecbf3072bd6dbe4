import type { AddressInfo } from "node:net";
import { credentialReportCsv, type FakeAccountModel, smallAccount } from "@sightline/aws-fake";
import {
  getAnalysisResult,
  listAccessChanges,
  listFindings,
  putReviewSettings,
  rawQuery,
} from "@sightline/db";
import {
  AccessChange,
  AlertDestinationsBody,
  AlertPayload,
  ChangeCause,
  changeCauseKey,
  changeMatchesKind,
  DEFAULT_ALERT_KINDS,
  DEFAULT_REVIEW_SETTINGS,
} from "@sightline/domain";
import { Manifest } from "@sightline/reports";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { verifyAlertSignature } from "../src/alerts/webhook-signature.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startReceiver, waitFor } from "./support/alerts.ts";
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

// Where the partner wants to hear of changes: its webhook, its mailbox (through a real SMTP
// server standing in for the operator's relay) and its Security Hub (the fake's).
const receiver = await startReceiver();
const mails: ParsedMail[] = [];
const relay = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream).then(
      (mail) => {
        mails.push(mail);
        callback();
      },
      (error: Error) => callback(error),
    );
  },
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));
const relayPort = (relay.server.address() as AddressInfo).port;

const pipeline = await startPipeline({
  model,
  alerts: {
    allowedHosts: [{ host: "127.0.0.1", port: receiver.port }],
    caCertificates: [receiver.cert],
    smtp: { url: `smtp://127.0.0.1:${relayPort}`, from: "alerts@sightline.example" },
  },
});
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
  const hubRole = `arn:aws:iam::${ACCOUNT}:role/SightlineFindings`;
  fake.trustExternalId(hubRole, `hub-${partner.partnerId}`);
  const { destinations } = await putAlertDestinations(
    ctx,
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [
        { name: "soc webhook", kind: "webhook", url: receiver.url },
        { name: "soc mail", kind: "email", recipients: ["soc@partner.example"] },
        {
          name: "security hub",
          kind: "securityhub",
          roleArn: hubRole,
          externalId: `hub-${partner.partnerId}`,
          region: "eu-west-1",
        },
      ],
    }),
  );
  const secret = destinations.find((d) => d.kind === "webhook")?.secret ?? "";
  // The customer's own threshold: a password older than 15 days is a finding (alice's is 20).
  await putReviewSettings(ctx.db, partner.customerId, {
    ...DEFAULT_REVIEW_SETTINGS,
    credentialRotationDays: 15,
  });
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
  // Every alert of the second analysis arrived before the third one runs.
  await waitFor(
    async () =>
      receiver.received.length > 0 && mails.length > 0 && fake.findings.length > 0
        ? true
        : undefined,
    "the second analysis's alerts to arrive",
  );
  const alerted = {
    webhook: receiver.received.length,
    mail: mails.length,
    hub: fake.findings.length,
  };
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
    // With the default threshold (90 days) alice's password would be no finding.
    expect(kinds).toEqual(
      new Set(["iam-admin", "unused-principal", "external-access", "stale-password"]),
    );
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

  it("stores each change's cause, read from its principal and the policy granting it", async () => {
    const page = await listAccessChanges(ctx.db, {
      ...account,
      since: second.execution.startedAt ?? new Date(0),
      limit: 10_000,
    });
    const causes = new Map<string, Set<string>>();
    for (const { change, cause } of page.changes) {
      const { kind, principalArn } = AccessChange.parse(change);
      const key = `${kind} ${principalArn}`;
      causes.set(key, (causes.get(key) ?? new Set()).add(changeCauseKey(ChangeCause.parse(cause))));
    }
    const admin = {
      kind: "iam-admin",
      principalArn: arnOf("user/bob"),
      policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
    };
    // bob's capabilities came with his admin policy: one cause for all of them.
    for (const kind of ["iam-admin-gained", "access-gained", "confidential-access-gained"])
      expect([...(causes.get(`${kind} ${arnOf("user/bob")}`) ?? [])], kind).toEqual([
        changeCauseKey(ChangeCause.parse(admin)),
      ]);
    // The Analyst's inline policy has no ARN; the archive was opened by its own policy.
    expect([...(causes.get(`access-gained ${arnOf("role/Analyst")}`) ?? [])]).toEqual([
      changeCauseKey({ kind: "policy", principalArn: arnOf("role/Analyst") }),
    ]);
    expect([...(causes.get(`external-access-gained ${OUTSIDE}`) ?? [])]).toEqual([
      changeCauseKey({ kind: "resource-policy", resourceArn: "arn:aws:s3:::archive" }),
    ]);
    expect([...(causes.get(`credential-deactivated ${arnOf("user/alice")}`) ?? [])]).toEqual([
      changeCauseKey({ kind: "principal", principalArn: arnOf("user/alice") }),
    ]);
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
    const kept = [...after].filter(([uid, row]) => before.has(uid) && row.status_id !== 4);
    expect(kept).not.toHaveLength(0);
    for (const [, row] of kept) expect(row).toMatchObject({ activity_id: 2, status_id: 2 });
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
    expect(stored.findings).not.toHaveLength(0);
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

  it("alerts the webhook, the mailbox and Security Hub of what the default rule names, once", async () => {
    const alerting = second.changes
      .map((row) => AccessChange.parse(fromRow(row)))
      .filter((change) => DEFAULT_ALERT_KINDS.some((kind) => changeMatchesKind(change, kind)));
    expect(new Set(alerting.map((c) => c.kind))).toEqual(
      new Set(["iam-admin-gained", "external-access-gained", "confidential-access-gained"]),
    );
    // The webhook: one signed request with those changes.
    expect(alerted.webhook).toBe(1);
    const request = receiver.received[0];
    expect(verifyAlertSignature(secret, request?.headers ?? {}, request?.body ?? "")).toBe(true);
    const payload = AlertPayload.parse(JSON.parse(request?.body ?? "{}"));
    expect(payload).toMatchObject({
      customerId: partner.customerId,
      accountId: ACCOUNT,
      executionId: second.execution.executionId,
    });
    expect(payload.changes.map((c) => c.changeId).sort()).toEqual(
      alerting.map((c) => c.changeId).sort(),
    );
    // Each carries its cause, as the changes API lists it.
    expect(payload.changes.find((c) => c.kind === "iam-admin-gained")?.cause).toMatchObject({
      kind: "iam-admin",
      principalArn: arnOf("user/bob"),
    });
    // The mailbox: one digest, text and HTML, naming the new admin.
    expect(alerted.mail).toBe(1);
    expect(mails[0]?.subject).toContain(ACCOUNT);
    expect(mails[0]?.text).toContain(arnOf("user/bob"));
    expect(String(mails[0]?.html)).toContain("iam-admin-gained");
    // Security Hub: one finding per change.
    expect(fake.findings.map((f) => f.finding.Id).sort()).toEqual(
      alerting.map((c) => c.changeId).sort(),
    );
    // The third analysis changed nothing and alerted nobody.
    expect([receiver.received.length, mails.length, fake.findings.length]).toEqual([
      alerted.webhook,
      alerted.mail,
      alerted.hub,
    ]);
  });
});

/** A delivered access-changes row as the domain's change. */
function fromRow(row: Record<string, unknown>) {
  return {
    changeId: row.change_id,
    kind: row.kind,
    change: row.change,
    principalArn: row.principal_arn,
    principalName: row.principal_name,
    principalType: row.principal_type,
    serviceName: row.service_name,
    accessCapability: row.access_capability,
    resourceArn: row.resource_arn,
    ...(row.reach ? { reach: row.reach } : {}),
    confidential: row.confidential,
    before: row.before,
    after: row.after,
    grantedBy: row.granted_by,
  };
}
