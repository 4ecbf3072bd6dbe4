import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the vending service received. */
export interface VendingCall {
  readonly method: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

export interface VendingAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface FakeCredentialVending {
  /** `http://127.0.0.1:<port>/credentials` */
  readonly url: string;
  readonly calls: readonly VendingCall[];
  close(): Promise<void>;
}

/**
 * A credential vending service on loopback, answering each POST with `answer(call)`. Plain HTTP
 * is fine on loopback for tests; real vending services must be HTTPS.
 */
export async function startFakeCredentialVending(
  answer: (call: VendingCall) => VendingAnswer,
): Promise<FakeCredentialVending> {
  const calls: VendingCall[] = [];
  const server = createServer(async (incoming, outgoing) => {
    const parts: Buffer[] = [];
    for await (const part of incoming) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString("utf8");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the test asserts what was sent.
    }
    const call = {
      method: incoming.method ?? "",
      authorization: incoming.headers.authorization,
      contentType: incoming.headers["content-type"],
      body,
    };
    calls.push(call);
    const { status, body: reply } = answer(call);
    const payload = typeof reply === "string" ? reply : JSON.stringify(reply);
    outgoing.writeHead(status, { "content-type": "application/json" });
    outgoing.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/credentials`,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
