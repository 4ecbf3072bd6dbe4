import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// The built server, as an operator runs it, with short deadlines: a client that trickles its
// headers or its body is cut off at the deadline instead of holding a connection.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
let server: ChildProcess;
let port: number;
/** What the server logged (JSON lines). */
let output = "";
beforeAll(async () => {
  server = spawn(process.execPath, [fileURLToPath(new URL("../dist/main.js", import.meta.url))], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: inject("databaseUrl"),
      SIGHTLINE_DATA_DIR: await mkdtemp(path.join(tmpdir(), "sightline-slow-")),
      SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
      SIGHTLINE_ROLE: "api",
      PORT: "0",
      SIGHTLINE_REQUEST_TIMEOUT_SECONDS: "3",
      SIGHTLINE_HEADERS_TIMEOUT_SECONDS: "2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (;;) {
    const match = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(output);
    if (match) {
      port = Number(match[1]);
      break;
    }
    if (server.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(() => {
  server.kill("SIGKILL");
});

/** Sends `first`, then one byte every 500 ms; resolves with the seconds until the server closed. */
async function trickle(first: string): Promise<{ seconds: number; answer: string }> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  const started = performance.now();
  let answer = "";
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString();
  });
  socket.write(first);
  const drip = setInterval(() => socket.writable && socket.write("a"), 500);
  await once(socket, "close");
  clearInterval(drip);
  return { seconds: (performance.now() - started) / 1000, answer };
}

describe("slow clients", () => {
  it("cuts off a client whose headers never end, at the headers deadline", async () => {
    const { seconds, answer } = await trickle("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    expect(seconds).toBeGreaterThanOrEqual(1.9);
    expect(seconds).toBeLessThan(8);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("cuts off a client whose body never ends, at the request deadline", async () => {
    const { seconds, answer } = await trickle(
      `PUT /admin/customers/C123456 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    expect(seconds).toBeGreaterThanOrEqual(2.9);
    expect(seconds).toBeLessThan(10);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("logs a client that aborts its request at info, not as an unhandled error", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    const from = output.length;
    socket.write(
      `PUT /admin/customers/C123456 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"customerId":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const lines = output
      .slice(from)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "client aborted the request" }),
    );
  });
});
