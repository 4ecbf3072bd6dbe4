import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const document = (await h.call("GET", "/openapi.json")).text;

/** Type-checks `code` next to the client types generated from the served document. */
async function typeErrors(code: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-client-"));
  const schema = astToString(await openapiTS(JSON.parse(document)));
  await writeFile(path.join(dir, "schema.ts"), schema);
  await writeFile(path.join(dir, "client.ts"), code);
  const program = ts.createProgram([path.join(dir, "client.ts")], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the OpenAPI document", () => {
  it("passes Redocly's recommended rules without an error or a warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: document,
      absoluteRef: "openapi.json",
      config,
    });
    const described = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    expect(described).toEqual([]);
  });

  it("gives a generated client a typed body for a monitored AWS account", async () => {
    const errors = await typeErrors(`
import type { paths } from "./schema.ts";
type Put = paths["/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}"]["put"];
type Body = Put["requestBody"]["content"]["application/json"];
type Record = Put["responses"][200]["content"]["application/json"];
const base = { partnerId: "P123456", partnerCustomerId: "acme-prod", accountId: "123456789012" } as const;
export const aws: Body = {
  ...base, provider: "aws", auditorAuthMethod: "config",
  auditorAuthConfig: { roleArn: "arn:aws:iam::123456789012:role/Auditor", externalId: "ext-1" },
};
export const azure: Body = {
  ...base, accountId: "0b1f6471-1bf0-4dda-aec3-111122223333", provider: "azure", auditorAuthMethod: "config",
  auditorAuthConfig: { tenantId: "0b1f6471-1bf0-4dda-aec3-111122223333", clientId: "0b1f6471-1bf0-4dda-aec3-111122223334" },
};
// @ts-expect-error an AWS account takes a role, not an Azure principal
export const mixed: Body = { ...base, provider: "aws", auditorAuthMethod: "config", auditorAuthConfig: { tenantId: "t", clientId: "c" } };
// @ts-expect-error the external ID is required
export const noExternalId: Body = { ...base, provider: "aws", auditorAuthMethod: "config", auditorAuthConfig: { roleArn: "r" } };
export const customerId = (r: Record): string => r.customerId;
`);
    expect(errors).toEqual([]);
  }, 60_000);

  it("serves the contract's trigger URLs, naming their parameters as every other route does", () => {
    const paths = Object.keys(JSON.parse(document).paths);
    const camelCase = (path: string) => path.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    for (const contractPath of [
      "/customer/{customer_id}/account/{account_id}/analysis",
      "/partner/{partner_id}/customer/{partner_customer_id}/account/{account_id}/analysis",
    ])
      expect(paths).toContain(camelCase(contractPath));
    expect(paths.filter((path) => path.includes("_"))).toEqual([]);
  });

  it("gives a generated client typed trigger bodies and answers", async () => {
    const errors = await typeErrors(`
import type { paths } from "./schema.ts";
type Trigger = paths["/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/analysis"]["post"];
type Body = Trigger["requestBody"]["content"]["application/json"];
const base = { partnerId: "P123456", partnerCustomerId: "acme-prod", accountId: "123456789012" } as const;
export const configured: Body = base;
export const own: Body = {
  ...base, auditorAuthMethod: "credential",
  auditorAuthCredential: { provider: "aws", type: "credential_sts", details: {
    accessKey: "ASIAEXAMPLE0000000", secretKey: "s", sessionToken: "t",
    expiration: "2030-01-01T00:00:00Z", arn: "arn:aws:sts::123456789012:assumed-role/A/s" } },
};
// @ts-expect-error the own credential has a closed set of types
export const wrongType: Body = { ...base, auditorAuthMethod: "credential", auditorAuthCredential: { provider: "aws", type: "password", details: own.auditorAuthCredential!.details } };
export const executionOf = (r: Trigger["responses"][202]["content"]["application/json"]): string => r.executionId;
type Direct = paths["/customer/{customerId}/account/{accountId}/analysis"]["post"];
export const direct: Direct["requestBody"]["content"]["application/json"] = { customerId: "C12345", accountId: "123456789012" };
type Execution = paths["/executions/{executionId}"]["get"]["responses"][200]["content"]["application/json"];
export const status = (e: Execution): "queued" | "running" | "succeeded" | "failed" => e.status;
`);
    expect(errors).toEqual([]);
  }, 60_000);

  it("fails the type check of a wrong body (the check itself can fail)", async () => {
    const errors = await typeErrors(`
import type { paths } from "./schema.ts";
type Put = paths["/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}"]["put"];
export const wrong: Put["requestBody"]["content"]["application/json"] = { provider: "gcp" };
`);
    expect(errors.join("\n")).toMatch(/gcp/);
  }, 60_000);
});
