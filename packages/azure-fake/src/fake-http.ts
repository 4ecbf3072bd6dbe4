import type { IncomingMessage, ServerResponse } from "node:http";
import type { FakeAzureModel } from "./fake-model.ts";

/** A token the fake issued, by its access token. */
export interface IssuedToken {
  clientId: string;
  tenantId: string;
  scope: string;
}

/** What the fake's Entra ID, ARM and Graph handlers share, for one running fake. */
export interface FakeAzureContext {
  /** The served model; tests may change it between collections. */
  readonly model: FakeAzureModel;
  /** Items per page of every list. */
  readonly pageSize: number;
  readonly tokens: Map<string, IssuedToken>;
  /** `https://127.0.0.1:<port>`, once the server listens. */
  origin: string;
}

/**
 * The public cloud's token scopes, Microsoft's documented audiences: the tokens the fake issues
 * are for these (the URLs move to the fake, the audiences stay the cloud's own).
 */
export const PUBLIC_CLOUD_SCOPES = {
  armScope: "https://management.azure.com/.default",
  graphScope: "https://graph.microsoft.com/.default",
} as const;

export const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
};

/** One page of `items`, and the link to the next (the request's URL with `$skiptoken`). */
export function page<T>(
  ctx: FakeAzureContext,
  url: URL,
  items: readonly T[],
  linkName: "nextLink" | "@odata.nextLink",
) {
  const skip = Number(url.searchParams.get("$skiptoken") ?? "0");
  const value = items.slice(skip, skip + ctx.pageSize);
  const body: Record<string, unknown> = { value };
  if (skip + ctx.pageSize < items.length) {
    const next = new URL(url);
    next.searchParams.set("$skiptoken", String(skip + ctx.pageSize));
    body[linkName] = next.toString();
  }
  return body;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** The token of the request's `Authorization` header, if the fake issued it for `scope`. */
export function caller(
  ctx: FakeAzureContext,
  req: IncomingMessage,
  scope: string,
): IssuedToken | undefined {
  const header = req.headers.authorization ?? "";
  const issued = header.startsWith("Bearer ") ? ctx.tokens.get(header.slice(7)) : undefined;
  return issued && issued.scope === scope ? issued : undefined;
}
