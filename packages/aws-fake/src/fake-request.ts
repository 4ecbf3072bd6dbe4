import type { IncomingMessage } from "node:http";

export type FakeService =
  | "sts"
  | "iam"
  | "kms"
  | "organizations"
  | "s3"
  | "ec2"
  | "securityhub"
  | "sqs";
const SERVICES = new Set<string>([
  "sts",
  "iam",
  "kms",
  "organizations",
  "s3",
  "ec2",
  "securityhub",
  "sqs",
]);

/** A signed request, read whole, with what its SigV4 credential scope says. */
export interface FakeRequest {
  readonly service: FakeService;
  readonly region: string;
  /** The access key ID of `Authorization: AWS4-HMAC-SHA256 Credential=<key>/…`. */
  readonly accessKeyId: string;
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** The payload as sent: S3 decodes `aws-chunked` itself (`readPayload`). */
  readonly body: Buffer;
}

/** Reads a request; undefined when it carries no SigV4 signature the fake understands. */
export async function readFakeRequest(incoming: IncomingMessage): Promise<FakeRequest | undefined> {
  const parts: Buffer[] = [];
  for await (const part of incoming) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const scope = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(
    headers.authorization ?? "",
  );
  const [, accessKeyId, region, service] = scope ?? [];
  if (!accessKeyId || !region || !service || !SERVICES.has(service)) return undefined;
  return {
    service: service as FakeService,
    region,
    accessKeyId,
    method: incoming.method ?? "GET",
    url: new URL(incoming.url ?? "/", "http://127.0.0.1"),
    headers,
    body: raw,
  };
}

const HIDDEN_HEADERS = new Set(["authorization", "x-amz-security-token"]);

/** The headers a test may look at: all but the signature and the session token. */
export function visibleHeaders(
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HIDDEN_HEADERS.has(name)));
}
