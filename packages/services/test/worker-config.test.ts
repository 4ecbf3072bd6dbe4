import { describe, expect, it } from "vitest";
import { PipelineConfig } from "../src/runtime/worker-config.ts";
import { alertSettingsOf, analysisSettingsOf } from "../src/runtime/worker-settings.ts";

const APP = "5a9c1b2e-0d7f-4c3b-9e21-8f6a4d3c2b10";

describe("the worker's Azure configuration", () => {
  it("takes Sightline's application secret and client ID, never into anything but settings", () => {
    const config = PipelineConfig.parse({
      SIGHTLINE_AZURE_CLIENT_ID: APP,
      SIGHTLINE_AZURE_CLIENT_SECRET: "s3cret-value",
    });
    expect(analysisSettingsOf(config, "/data").azure).toEqual({
      appSecret: { kind: "secret", clientSecret: "s3cret-value" },
      clientId: APP,
    });
  });

  it("takes a certificate file and endpoint overrides instead", () => {
    const config = PipelineConfig.parse({
      SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH: "/etc/sightline/app.pem",
      SIGHTLINE_AZURE_ARM_URL: "https://management.example.internal",
      SIGHTLINE_AZURE_GRAPH_URL: "https://graph.example.internal",
      SIGHTLINE_AZURE_AUTHORITY_HOST: "https://login.example.internal",
    });
    expect(analysisSettingsOf(config, "/data").azure).toEqual({
      appSecret: { kind: "certificate", certificatePath: "/etc/sightline/app.pem" },
      endpoints: {
        armUrl: "https://management.example.internal",
        graphUrl: "https://graph.example.internal",
        authorityHost: "https://login.example.internal",
      },
    });
  });

  it("leaves Azure unset when nothing is configured", () => {
    expect(analysisSettingsOf(PipelineConfig.parse({}), "/data").azure).toBeUndefined();
  });

  it.each([
    [
      "a secret and a certificate",
      { SIGHTLINE_AZURE_CLIENT_SECRET: "x", SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH: "/a.pem" },
      "SIGHTLINE_AZURE_CLIENT_CERTIFICATE_PATH",
    ],
    [
      "a client ID that is no UUID",
      { SIGHTLINE_AZURE_CLIENT_ID: "sightline" },
      "SIGHTLINE_AZURE_CLIENT_ID",
    ],
    [
      "a plain-http endpoint",
      { SIGHTLINE_AZURE_ARM_URL: "http://management.azure.com" },
      "SIGHTLINE_AZURE_ARM_URL",
    ],
  ])("refuses %s, naming the variable and never its value", (_, env, variable) => {
    const parsed = PipelineConfig.safeParse(env);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toContain(variable);
    expect(JSON.stringify(parsed.error?.issues.map((i) => i.message))).not.toContain("sightline");
  });
});

describe("the report formats", () => {
  it("are k9's CSVs and Sightline's Parquet rows by default; xlsx adds k9's workbook", () => {
    expect(analysisSettingsOf(PipelineConfig.parse({}), "/data")).toMatchObject({
      formats: ["csv", "parquet"],
    });
    expect(analysisSettingsOf(PipelineConfig.parse({}), "/data").workbook).toBeUndefined();
    const settings = analysisSettingsOf(
      PipelineConfig.parse({ SIGHTLINE_REPORT_FORMATS: "csv, xlsx,jsonl" }),
      "/data",
    );
    expect(settings).toMatchObject({ formats: ["csv", "jsonl"], workbook: true });
    const refused = PipelineConfig.safeParse({ SIGHTLINE_REPORT_FORMATS: "csv,xls" });
    expect(refused.success).toBe(false);
  });
});

describe("the alerts' configuration", () => {
  it("reads the allowed hosts, the relay and the retries", () => {
    const config = PipelineConfig.parse({
      SIGHTLINE_ALERT_ALLOWED_HOSTS: "hooks.corp.example:8443, 127.0.0.1",
      SIGHTLINE_SMTP_URL: "smtp://user:pass@relay.example:587",
      SIGHTLINE_ALERT_EMAIL_FROM: "alerts@sightline.example",
      SIGHTLINE_ALERT_RETRY_LIMIT: "4",
    });
    expect(alertSettingsOf(config)).toEqual({
      allowedHosts: [{ host: "hooks.corp.example", port: 8443 }, { host: "127.0.0.1" }],
      smtp: { url: "smtp://user:pass@relay.example:587", from: "alerts@sightline.example" },
      retry: { limit: 4, delaySeconds: 30 },
    });
    expect(alertSettingsOf(PipelineConfig.parse({}))).toEqual({
      allowedHosts: [],
      retry: { limit: 6, delaySeconds: 30 },
    });
  });

  it("names the variable and the rule, never the relay's URL", () => {
    const result = PipelineConfig.safeParse({
      SIGHTLINE_ALERT_ALLOWED_HOSTS: "https://hooks.example",
      SIGHTLINE_SMTP_URL: "http://user:hunter2@relay",
      SIGHTLINE_ALERT_EMAIL_FROM: "alerts@sightline.example",
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(issues).toEqual([
      "SIGHTLINE_ALERT_ALLOWED_HOSTS.0: must list host names or IP addresses, each optionally with :port (e.g. hooks.corp.example:8443)",
      "SIGHTLINE_SMTP_URL: must be an smtp:// or smtps:// URL",
    ]);
    expect(JSON.stringify(result.error)).not.toContain("hunter2");
    const noSender = PipelineConfig.safeParse({ SIGHTLINE_SMTP_URL: "smtp://relay.example:25" });
    expect(noSender.error?.issues.map((i) => i.path.join("."))).toEqual([
      "SIGHTLINE_ALERT_EMAIL_FROM",
    ]);
  });
});
