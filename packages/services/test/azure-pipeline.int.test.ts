import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type AzureTokenCredential, createAppCredential } from "@sightline/azure";
import { smallTenant } from "@sightline/azure-fake";
import { latestSnapshot } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { AzureRoleDefinitionInput, AzureSnapshot } from "@sightline/engine";
import { Manifest, PRINCIPAL_COLUMNS } from "@sightline/reports";
import {
  DATADOG_FILE_RULE,
  DATADOG_FILE_RULE_CORRECTED,
  k9CliLoadLocalDb,
  k9CliSyncSelects,
  splunkStagedFiles,
} from "@sightline/reports/k9-contract";
import { afterAll, describe, expect, it } from "vitest";
import { readCollection } from "../src/snapshots/stored-collection.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

// A credential vending service for `cvs` subscriptions: it hands out tokens that it gets from
// the fake Entra ID as the partner's own application (here the same registration).
const vended: Record<string, unknown>[] = [];
let issuer: AzureTokenCredential | undefined;
const vending = createServer(async (req, res) => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>;
  vended.push({ ...body, authorization: req.headers.authorization });
  const token = await issuer?.getToken(String(body.scope));
  res.writeHead(token ? 200 : 503, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      accessToken: token?.token,
      expiresOn: new Date(token?.expiresOnTimestamp ?? 0).toISOString(),
    }),
  );
});
await new Promise<void>((resolve) => vending.listen(0, "127.0.0.1", resolve));
const vendingUrl = `http://127.0.0.1:${(vending.address() as AddressInfo).port}/tokens`;

const pipeline = await startPipeline({
  azure: true,
  credentialVending: { url: vendingUrl, token: "vending-token-0123456789" },
});
afterAll(async () => {
  await pipeline.close();
  await new Promise((resolve) => vending.close(resolve));
});
const { ctx } = pipeline;
const azure = pipeline.azure;
if (!azure) throw new Error("the fake Azure did not start");
issuer = createAppCredential({
  tenantId: smallTenant.TENANT_ID,
  clientId: smallTenant.CLIENT_ID,
  secret: { kind: "secret", clientSecret: smallTenant.CLIENT_SECRET },
  endpoints: azure.endpoints,
  http: { trustedCertificates: azure.certificate },
});
const inboxFile = (key: string) => path.join(pipeline.settings.analysis.inboxDir, key);
const SUB = smallTenant.SUBSCRIPTION_ID;

describe("an Azure subscription's analysis, end to end through the fake Azure", () => {
  it("signs in as Sightline's application, collects, analyses and delivers to the folder inbox under the azure keys", async () => {
    const partner = await pipeline.azurePartner({
      featureFlags: { latestReportEnabled: true, hiveEnabled: true },
    });
    const { executionId, accountId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: SUB,
      kind: "ondemand",
    });
    expect(accountId).toBe(SUB);
    const execution = await pipeline.finished(executionId);
    expect(execution).toMatchObject({ status: "succeeded", failureCode: null });
    // Nothing was refused: no collection warning.
    expect(execution.warnings.filter((w) => w.code !== "input-issue")).toEqual([]);

    const keys = execution.reportKeys;
    const prefix = `customers/${partner.customerId}/reports/azure/${SUB}`;
    const stamp = execution.startedAt
      ?.toISOString()
      .slice(0, 16)
      .replace("T", "-")
      .replace(":", "");
    const day = stamp?.slice(0, 10);
    for (const type of [
      "principals",
      "resources",
      "principal-access-summaries",
      "resource-access-summaries",
    ]) {
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
      expect(keys).toContain(
        `sightline/hive/azure/${type}/customer_id=${partner.customerId}/account_id=${SUB}/dt=${day}/${type}.parquet`,
      );
    }
    // Only the azure layout: nothing under reports/aws or k9's (AWS) hive tables.
    expect(
      keys.every((k) => k.startsWith(`${prefix}/`) || k.startsWith("sightline/hive/azure/")),
    ).toBe(true);

    // k9's tools, pointed at the whole customer folder: Splunk's staging and Datadog's rules take
    // no Azure file; k9 sync fetches the dated CSVs, and its walk still succeeds (they stand as
    // one more account, the subscription, so an AWS account's `k9 query` is not disturbed).
    expect(splunkStagedFiles(keys)).toEqual([]);
    expect(
      keys.filter((k) => DATADOG_FILE_RULE.test(k) || DATADOG_FILE_RULE_CORRECTED.test(k)),
    ).toEqual([]);
    const synced = keys.filter((k) => k9CliSyncSelects(k));
    expect(synced).toHaveLength(4);
    const walked = k9CliLoadLocalDb(synced);
    expect(walked).not.toHaveProperty("error");
    if ("db" in walked)
      expect([...(walked.db.get(partner.customerId)?.keys() ?? [])]).toEqual([SUB]);

    // The latest manifest (last) lists the latest copies, each in the folder inbox with its SHA-256.
    const manifestKey = keys.at(-1) ?? "";
    expect(manifestKey).toBe(`${prefix}/sightline/latest/manifest.latest.json`);
    const manifest = Manifest.parse(JSON.parse(await readFile(inboxFile(manifestKey), "utf8")));
    expect(manifest).toMatchObject({
      executionId,
      provider: "azure",
      accountId: SUB,
      customerId: partner.customerId,
    });
    expect(manifest.objects.map((o) => o.key).sort()).toEqual(
      keys.filter((k) => k.includes("/latest/") && !k.includes("/manifest.")).sort(),
    );
    for (const object of manifest.objects) {
      const body = await readFile(inboxFile(object.key));
      expect(createHash("sha256").update(body).digest("hex"), object.key).toBe(object.sha256);
    }

    // The principals report lists every principal assigned a role that applies to the
    // subscription, and not the one assigned only at a management group outside its chain.
    const principals = await readFile(inboxFile(`${prefix}/latest/principals.latest.csv`), "utf8");
    const [header, ...rows] = principals.trimEnd().split("\r\n");
    expect(header).toBe(PRINCIPAL_COLUMNS.map((c) => c.name).join(","));
    for (const id of smallTenant.ASSIGNED_PRINCIPAL_IDS) expect(principals).toContain(id);
    expect(principals).not.toContain(smallTenant.DAVE);
    expect(rows.length).toBeGreaterThanOrEqual(smallTenant.ASSIGNED_PRINCIPAL_IDS.length);
    const jsonl = (
      await readFile(inboxFile(`${prefix}/sightline/latest/principals.latest.jsonl`), "utf8")
    )
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(jsonl.map((r) => r.principal_account_id)).toEqual(jsonl.map(() => SUB));

    // The collected snapshot is stored for retries, in the engine's AzureSnapshot shape.
    const stored = await latestSnapshot(ctx.db, { customerId: partner.customerId, accountId: SUB });
    expect(stored?.executionId).toBe(executionId);
    const collected = (await readCollection(stored ?? ({} as never))) as {
      snapshot: AzureSnapshot;
    };
    expect(collected.snapshot.subscriptionId).toBe(SUB);
    expect(collected.snapshot.managementGroupAncestors).toEqual([
      smallTenant.TENANT_ID,
      smallTenant.MANAGEMENT_GROUP,
    ]);
    expect(new Set(collected.snapshot.roleAssignments.map((a) => a.principalId))).toEqual(
      new Set(smallTenant.ASSIGNED_PRINCIPAL_IDS),
    );

    // Through the real clients: tokens from the fake Entra ID, then ARM and Graph.
    const services = new Set(azure.calls.map((c) => c.service));
    expect(services).toEqual(new Set(["token", "arm", "graph"]));
  });

  it("cvs: collects with tokens from the credential vending service, one per API", async () => {
    const partner = await pipeline.azurePartner({ auditorAuthMethod: "cvs" });
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: SUB,
      kind: "ondemand",
    });
    const execution = await pipeline.finished(executionId);
    expect(execution).toMatchObject({ status: "succeeded", failureCode: null });
    expect(execution.reportKeys.at(-1)).toBe(
      `customers/${partner.customerId}/reports/azure/${SUB}/sightline/${execution.startedAt?.toISOString().slice(0, 4)}/${execution.startedAt?.toISOString().slice(5, 7)}/manifest.${execution.startedAt?.toISOString().slice(0, 16).replace("T", "-").replace(":", "")}.json`,
    );
    const asked = vended.filter((v) => v.executionId === executionId);
    expect(asked.map((v) => v.scope).sort()).toEqual([
      "https://graph.microsoft.com/.default",
      "https://management.azure.com/.default",
    ]);
    expect(asked[0]).toMatchObject({
      partnerId: partner.partnerId,
      partnerCustomerId: partner.partnerCustomerId,
      customerId: partner.customerId,
      accountId: SUB,
      provider: "azure",
      authorization: "Bearer vending-token-0123456789",
    });
  });

  it("reports a malformed entry of the subscription as an input issue and analyses the rest", async () => {
    const partner = await pipeline.azurePartner();
    const guid = "9e9e9e9e-0000-4000-8000-000000000001";
    // A custom role whose `actions` is not a list: the engine leaves it out with an issue.
    const malformed = {
      id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${guid}`,
      name: guid,
      roleName: "Malformed operator",
      roleType: "CustomRole",
      assignableScopes: [`/subscriptions/${SUB}`],
      permissions: [{ actions: "Microsoft.Compute/*" }],
    } as unknown as AzureRoleDefinitionInput;
    azure.model.roleDefinitions.push(malformed);
    try {
      const { executionId } = await triggerAnalysis(ctx, {
        owner: { kind: "partner", ...partner },
        accountId: SUB,
        kind: "ondemand",
      });
      const execution = await pipeline.finished(executionId);
      expect(execution).toMatchObject({ status: "succeeded", failureCode: null });
      const issues = execution.warnings
        .filter((w) => w.code === "input-issue")
        .map((w) => w.message);
      expect(issues).toContainEqual(
        expect.stringMatching(
          /^roleDefinitions\[\d+\]\.permissions\[0\]\.actions: must be a list; the role definition is ignored$/,
        ),
      );
      const reports = `customers/${partner.customerId}/reports/azure/${SUB}/`;
      expect(execution.reportKeys).toContainEqual(
        expect.stringMatching(new RegExp(`^${reports}\\d{4}/\\d{2}/principals\\.[\\d-]+\\.csv$`)),
      );
    } finally {
      azure.model.roleDefinitions.splice(azure.model.roleDefinitions.indexOf(malformed), 1);
    }
  });

  it("fails ACCESS_DENIED naming the permission when the application lacks Reader", async () => {
    const partner = await pipeline.azurePartner();
    for (const app of azure.model.apps) app.reader = false;
    try {
      const { executionId } = await triggerAnalysis(ctx, {
        owner: { kind: "partner", ...partner },
        accountId: SUB,
        kind: "ondemand",
      });
      const execution = await pipeline.finished(executionId);
      expect(execution).toMatchObject({ status: "failed", failureCode: "ACCESS_DENIED" });
      expect(execution.failureMessage).toContain("Microsoft.Resources/subscriptions/read");
      expect(execution.reportKeys).toEqual([]);
    } finally {
      for (const app of azure.model.apps) app.reader = true;
    }
  });

  it("refuses an own credential for an Azure subscription (400 naming the rule)", async () => {
    const partner = await pipeline.azurePartner();
    const error = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: SUB,
      kind: "ondemand",
      credential: {
        provider: "aws",
        type: "credential_sts",
        details: {
          accessKey: "ASIAEXAMPLEEXAMPLE01",
          secretKey: "secret-secret-secret-secret",
          sessionToken: "token-token-token-token",
          expiration: new Date(Date.now() + 3_600_000).toISOString(),
          arn: "arn:aws:sts::210987654321:assumed-role/r/s",
        },
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INVALID_INPUT");
    expect((error as AppError).issues?.[0]?.path).toBe("auditorAuthMethod");
    expect((error as AppError).message).toContain("AWS-only");
  });
});
