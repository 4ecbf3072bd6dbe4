import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { startE2e } from "./e2e-pipeline.ts";

const { h, accountId, configure, triggerAndWait } = await startE2e();
const ARN = (kind: string, name: string) => `arn:aws:iam::${accountId}:${kind}/${name}`;

let partner: Awaited<ReturnType<typeof configure>>;
let executionId: string;

/** The SDK's client, talking Streamable HTTP to the app in this process with `key`. */
async function connect(key: string | undefined) {
  const transport = new StreamableHTTPClientTransport(new URL("http://sightline.test/mcp"), {
    // As an agent is configured: the key in a header of every request.
    ...(key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {}),
    fetch: async (url, init) => h.app.request(new URL(String(url)).pathname, init),
  });
  const client = new Client({ name: "sightline-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
};
const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? "").join("");

beforeAll(async () => {
  partner = await configure(false);
  const execution = await triggerAndWait(partner);
  expect(execution.status).toBe("succeeded");
  executionId = execution.executionId;
});

describe("the MCP server at /mcp", () => {
  it("refuses a client without a key", async () => {
    await expect(connect(undefined)).rejects.toThrow(/UNAUTHENTICATED/);
    const res = await h.call("POST", "/mcp", { body: {} });
    expect(res.status).toBe(401);
  });

  it("lists the tools, each with an input schema", async () => {
    const client = await connect(partner.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "access_paths",
      "audit_events",
      "changes_since",
      "findings",
      "iam_admins",
      "principal_access",
      "who_can_access",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(40);
      // Every tool names an account, but the tenant's audit trail.
      if (tool.name !== "audit_events")
        expect(tool.inputSchema.properties).toHaveProperty("accountId");
    }
    await client.close();
  });

  it("reads the tenant's audit trail with a read key, which the tools need", async () => {
    const made = await h.call("POST", `/partner/${partner.partnerId}/api-keys`, {
      key: partner.key,
      body: { name: "agent", scopes: ["read"] },
    });
    expect(made.status).toBe(201);
    const client = await connect(made.json.key as string);
    const result = (await client.callTool({
      name: "audit_events",
      arguments: { partnerId: partner.partnerId },
    })) as ToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const { events } = result.structuredContent as { events: { action: string }[] };
    expect(events[0]?.action).toBe("POST /partner/{partnerId}/api-keys");
    await client.close();
  });

  it("answers each tool from the account's analysis, with identifiers to follow up", async () => {
    const client = await connect(partner.key);
    const account = { partnerId: partner.partnerId, partnerCustomerId: partner.tenant, accountId };
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({
        name,
        arguments: { ...account, ...args },
      })) as ToolResult;
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };

    const admins = await call("iam_admins", {});
    expect(admins.executionId).toBe(executionId);
    const adminArns = (admins.admins as { principalArn: string }[]).map((a) => a.principalArn);
    expect(adminArns).toContain(ARN("role", "Deployer"));

    const access = await call("principal_access", { principalArn: ARN("user", "alice") });
    expect((access.principal as { principalArn: string }).principalArn).toBe(ARN("user", "alice"));
    expect(access.access).not.toHaveLength(0);

    const who = await call("who_can_access", {
      resourceArn: "arn:aws:s3:::reports",
      capability: "read-data",
    });
    const holders = who.principals as { principal: string; capability: string }[];
    expect(holders).not.toHaveLength(0);
    for (const holder of holders) expect(holder.capability).toBe("read-data");

    const paths = await call("access_paths", {
      resourceArn: ARN("role", "Deployer"),
      service: "STS",
    });
    const entry = (paths.resourceAccessPaths as Record<string, { accessPaths: unknown[] }>)[
      ARN("role", "Deployer")
    ];
    expect(entry?.accessPaths).not.toHaveLength(0);

    const changes = await call("changes_since", { since: "2000-01-01T00:00:00Z" });
    expect(changes.changes).toEqual([]); // The account's first analysis is its baseline.

    const findings = await call("findings", {});
    const found = findings.findings as { kind: string; subject: string; executionId: string }[];
    expect(found.map((f) => f.kind)).toContain("iam-admin");
    for (const finding of found) expect(finding.executionId).toBe(executionId);
    await client.close();
  });

  it("validates input as the API does, naming the field", async () => {
    const client = await connect(partner.key);
    const account = { partnerId: partner.partnerId, partnerCustomerId: partner.tenant, accountId };
    const bad = (await client.callTool({
      name: "changes_since",
      arguments: { ...account, since: "yesterday" },
    })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^400: .*since/);
    const neither = (await client.callTool({
      name: "findings",
      arguments: { accountId },
    })) as ToolResult;
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain("partnerId");
    await client.close();
  });

  it("refuses another tenant's identifiers", async () => {
    const other = await configure(false);
    const client = await connect(other.key);
    const victim = { partnerId: partner.partnerId, partnerCustomerId: partner.tenant, accountId };
    for (const [name, args] of [
      ["iam_admins", {}],
      ["who_can_access", { resourceArn: "arn:aws:s3:::reports" }],
      ["principal_access", { principalArn: ARN("user", "alice") }],
      ["access_paths", { resourceArn: ARN("role", "Deployer"), service: "STS" }],
      ["changes_since", { since: "2000-01-01T00:00:00Z" }],
      ["findings", {}],
    ] as const) {
      const result = (await client.callTool({
        name,
        arguments: { ...victim, ...args },
      })) as ToolResult;
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/^403: Caller is not authorized/);
      expect(textOf(result)).not.toContain("alice");
    }
    await client.close();
  });
});
