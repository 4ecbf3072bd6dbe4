import type { OpenAPIHono } from "@hono/zod-openapi";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AccessCapability, AppError, FINDING_STATUSES, PathService } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppDeps, AppEnv } from "./context.ts";
import { MAX_BODY_BYTES } from "./guards.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { holdsPermission } from "./permissions.ts";

/**
 * The agent interface: an MCP server (Streamable HTTP, stateless, JSON answers) at `/mcp`. Each
 * tool is one or two requests to the API's own routes with the caller's key, so an agent gets
 * exactly what the key may read, validated and refused as the API validates and refuses, and
 * answers that carry the identifiers to follow up with.
 */

export const MCP_PATH = "/mcp";

/** Which account: a partner's (partner, its customer, account) or a direct customer's. */
const accountShape = {
  accountId: z.string().describe("The AWS account ID or Azure subscription ID"),
  partnerId: z.string().optional().describe("A partner's ID (with partnerCustomerId)"),
  partnerCustomerId: z.string().optional().describe("The partner's customer ID"),
  customerId: z.string().optional().describe("A direct customer's ID (instead of the partner's)"),
};
type AccountInput = { accountId: string } & Partial<
  Record<"partnerId" | "partnerCustomerId" | "customerId", string>
>;

const segment = (value: string) => encodeURIComponent(value);

/** The account's path in the API, or why the input names none. */
function accountPath(input: AccountInput): string | { error: string } {
  if (input.customerId && !input.partnerId && !input.partnerCustomerId)
    return `/customer/${segment(input.customerId)}/account/${segment(input.accountId)}`;
  if (input.partnerId && input.partnerCustomerId && !input.customerId)
    return `/partner/${segment(input.partnerId)}/customer/${segment(input.partnerCustomerId)}/account/${segment(input.accountId)}`;
  return {
    error:
      "account: name either partnerId and partnerCustomerId (a partner's account) or customerId (a direct customer's), with accountId",
  };
}

type Call = (method: "GET" | "POST", path: string, body?: unknown) => Promise<Response>;

const failed = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** An API answer as a tool result: its JSON, or its error message with the status. */
async function resultOf(response: Response): Promise<CallToolResult> {
  const text = await response.text();
  if (response.ok)
    return {
      content: [{ type: "text", text }],
      structuredContent: JSON.parse(text) as Record<string, unknown>,
    };
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {}
  return failed(`${response.status}: ${message}`);
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/** The tools, over `call` (the API with the caller's key). */
export function buildMcpServer(call: Call): McpServer {
  const server = new McpServer({ name: "sightline", version: "0.1.0" });
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  const onAccount =
    <T extends AccountInput>(run: (path: string, input: T) => Promise<CallToolResult>) =>
    async (input: T) => {
      const path = accountPath(input);
      return typeof path === "string" ? run(path, input) : failed(path.error);
    };

  server.registerTool(
    "who_can_access",
    {
      title: "Who can access a resource",
      description:
        "Who holds access to one resource of an account (a bucket, key, role or resource with a resource-based policy), per access capability, with the policies that grant it and whether each principal is inside the account. From the account's newest analysis (executionId in the answer).",
      inputSchema: {
        ...accountShape,
        resourceArn: z.string().describe("The resource's ARN or Azure resource ID"),
        capability: AccessCapability.optional().describe("Only this access capability"),
      },
      annotations: readOnly,
    },
    onAccount(async (path, input: AccountInput & { resourceArn: string; capability?: string }) =>
      resultOf(
        await call(
          "GET",
          `${path}/who-can${query({ resourceArn: input.resourceArn, capability: input.capability })}`,
        ),
      ),
    ),
  );

  server.registerTool(
    "principal_access",
    {
      title: "What a principal can do",
      description:
        "One principal's effective access in an account: per service, access capability and resource (`*` for every resource of the service), whether conditional, and the policies that grant it; with its IAM-admin state.",
      inputSchema: {
        ...accountShape,
        principalArn: z.string().describe("The principal's ARN or Azure object ID"),
      },
      annotations: readOnly,
    },
    onAccount(async (path, input: AccountInput & { principalArn: string }) =>
      resultOf(
        await call("GET", `${path}/principal-access${query({ principalArn: input.principalArn })}`),
      ),
    ),
  );

  server.registerTool(
    "access_paths",
    {
      title: "Access paths to a resource",
      description:
        "The chains of principals and assumed roles that reach a resource with the given capabilities, within and across the partner customer's analysed AWS accounts (the API's resource-access-paths). Each path lists ARNs or account IDs, the first adjacent to the resource; `cycle`, `truncated` and `conditional` mark paths. Partners' accounts only.",
      inputSchema: {
        partnerId: z.string(),
        partnerCustomerId: z.string(),
        accountId: z.string(),
        resourceArn: z.string().describe("The resource's ARN (a role, bucket or key)"),
        service: PathService.describe("STS for a role, S3 for a bucket, KMS for a key"),
        capabilities: z
          .array(AccessCapability)
          .min(1)
          .default(["administer-resource", "use-resource"])
          .describe("The access capabilities a path must give (any of them)"),
        maxAccessPathNodes: z.number().int().min(1).max(15).optional(),
      },
      annotations: readOnly,
    },
    onAccount(
      async (
        path,
        input: AccountInput & {
          resourceArn: string;
          service: string;
          capabilities: string[];
          maxAccessPathNodes?: number;
        },
      ) =>
        resultOf(
          await call("POST", `${path}/resource-access-paths`, {
            resourceIds: [input.resourceArn],
            principalAccessCapabilities: input.capabilities,
            service: input.service,
            accessCapabilityOperator: "OR",
            ...(input.maxAccessPathNodes ? { maxAccessPathNodes: input.maxAccessPathNodes } : {}),
          }),
        ),
    ),
  );

  server.registerTool(
    "iam_admins",
    {
      title: "IAM admins of an account",
      description:
        "The account's principals that are IAM admins (`yes`) or admins under conditions (`conditional`), with the policies that make them so. From the newest analysis.",
      inputSchema: accountShape,
      annotations: readOnly,
    },
    onAccount(async (path) => {
      const answers = await Promise.all(
        ["yes", "conditional"].map((state) =>
          call("GET", `${path}/principals${query({ iamAdmin: state, limit: 1000 })}`),
        ),
      );
      const failure = answers.find((a) => !a.ok);
      if (failure) return resultOf(failure);
      const [admins, conditional] = (await Promise.all(answers.map((a) => a.json()))) as {
        executionId: string;
        analysisTime: string;
        principals: unknown[];
        nextCursor?: string;
      }[];
      const body = {
        executionId: admins?.executionId,
        analysisTime: admins?.analysisTime,
        admins: admins?.principals ?? [],
        conditionalAdmins: conditional?.principals ?? [],
        complete: !admins?.nextCursor && !conditional?.nextCursor,
      };
      return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
    }),
  );

  server.registerTool(
    "changes_since",
    {
      title: "Access changes since a time",
      description:
        "What the account's analyses found changed against the previous analysis since a time: principals added and removed, IAM admin gained and lost, capabilities gained and lost, access newly reaching from outside or reaching confidential resources, credentials. Each names its cause (kind iam-admin, policy, resource-policy, principal or organization; the policy, resource and CloudTrail eventIds behind it): changes with equal causes are one act. Oldest first; pass nextCursor as cursor to continue.",
      inputSchema: {
        ...accountShape,
        since: z.string().describe("An ISO 8601 time, e.g. 2026-11-01T00:00:00Z"),
        cursor: z.string().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      },
      annotations: readOnly,
    },
    onAccount(
      async (path, input: AccountInput & { since: string; cursor?: string; limit?: number }) =>
        resultOf(
          await call(
            "GET",
            `${path}/changes${query({ since: input.since, cursor: input.cursor, limit: input.limit })}`,
          ),
        ),
    ),
  );

  server.registerTool(
    "findings",
    {
      title: "Findings of an account",
      description:
        "The account's findings (IAM admins, unused principals, credentials not rotated or unused, over-accessible resources, access from outside the account), each with a stable ID, first and last seen; `status` active or resolved. Newest seen first; pass nextCursor as cursor to continue.",
      inputSchema: {
        ...accountShape,
        status: z.enum(FINDING_STATUSES).optional(),
        cursor: z.string().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      },
      annotations: readOnly,
    },
    onAccount(
      async (path, input: AccountInput & { status?: string; cursor?: string; limit?: number }) =>
        resultOf(
          await call(
            "GET",
            `${path}/findings${query({ status: input.status, cursor: input.cursor, limit: input.limit })}`,
          ),
        ),
    ),
  );

  server.registerTool(
    "audit_events",
    {
      title: "Who changed what",
      description:
        "A partner's or a direct customer's audit trail, newest first: each state-changing request (the key's ID and name, or operator; the route and its identifiers; the status; the fields changed, old and new, secrets only as changed) and each refused one. Pass nextCursor as cursor to continue.",
      inputSchema: {
        partnerId: z.string().optional().describe("A partner's ID"),
        customerId: z.string().optional().describe("A direct customer's ID (instead)"),
        since: z.string().optional().describe("An ISO 8601 time"),
        keyId: z.string().optional().describe("Only this key's events (or `operator`)"),
        cursor: z.string().optional(),
      },
      annotations: readOnly,
    },
    async (
      input: Partial<Record<"partnerId" | "customerId" | "since" | "keyId" | "cursor", string>>,
    ) => {
      const tenant = input.partnerId
        ? `/partner/${segment(input.partnerId)}`
        : input.customerId
          ? `/customer/${segment(input.customerId)}`
          : undefined;
      if (!tenant || (input.partnerId && input.customerId))
        return failed("name either partnerId or customerId");
      const { since, keyId, cursor } = input;
      return resultOf(
        await call("GET", `${tenant}/audit-events${query({ since, keyId, cursor })}`),
      );
    },
  );
  return server;
}

/** `POST /mcp` needs the `read` scope: its tools only read (each also meets its route's scope). */
function requireRead(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!holdsPermission(c.get("apiClient"), "read"))
      throw new AppError(
        "FORBIDDEN",
        "Caller is not authorized to use the MCP server: the API key lacks the 'read' scope",
      );
    await next();
  };
}

/**
 * Serves MCP at `/mcp` for any key with `read` (401 without one, 403 without `read`): a server per request (stateless), its
 * tools calling `app` with the same key and the same connection, so the per-address and per-key
 * rate limits count an agent's calls as the API's.
 */
export function registerMcp(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.all(MCP_PATH, authenticate(deps), requireRead(), async (c) => {
    const authorization = c.req.header("authorization") ?? "";
    const env = c.env;
    const call: Call = async (method, path, body) =>
      app.request(
        path,
        {
          method,
          headers: {
            authorization,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        env,
      );
    const server = buildMcpServer(call);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
}
