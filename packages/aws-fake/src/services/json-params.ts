import type { FakeRequest } from "../fake-request.ts";

/** The operation of an AWS JSON 1.1 request: `X-Amz-Target: <Service>.<Operation>`. */
export function jsonOperation(request: FakeRequest): string {
  return (request.headers["x-amz-target"] ?? "").split(".").pop() ?? "";
}

/** The JSON body of an AWS JSON 1.1 request. */
export function jsonBody(request: FakeRequest): Record<string, unknown> {
  const text = request.body.toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** One page of `items` from an opaque offset token; `limit` caps the page. */
export function jsonPage<T>(
  items: readonly T[],
  token: unknown,
  limit: unknown,
): { page: T[]; next?: string } {
  const offset = typeof token === "string" ? Number(Buffer.from(token, "base64").toString()) : 0;
  const size = typeof limit === "number" ? limit : 100;
  const next = offset + size < items.length ? offset + size : undefined;
  return {
    page: items.slice(offset, offset + size),
    ...(next === undefined ? {} : { next: Buffer.from(String(next)).toString("base64") }),
  };
}
