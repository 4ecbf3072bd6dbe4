import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// The built server serving HTTPS from TLS_CERT_FILE / TLS_KEY_FILE, with a certificate made
// here; SIGHUP swaps in a new certificate without a restart.

let server: ChildProcess;
let output = "";
let port: number;
let dir: string;
const files = () => ({ cert: path.join(dir, "cert.pem"), key: path.join(dir, "key.pem") });

async function newCertificate(): Promise<string> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    algorithm: "sha256",
  });
  await writeFile(files().cert, pems.cert);
  await writeFile(files().key, pems.private, { mode: 0o600 });
  return pems.fingerprint.toUpperCase();
}

/** GET over a fresh TLS connection: the status, the HSTS header and the served certificate. */
function get(pathname: string): Promise<{ status: number; hsts: unknown; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: pathname, rejectUnauthorized: false, agent: false },
      (res) => {
        const fingerprint = (res.socket as import("node:tls").TLSSocket).getPeerCertificate()
          .fingerprint;
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            hsts: res.headers["strict-transport-security"],
            fingerprint,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!condition()) throw new Error(`timed out waiting for ${what}: ${output}`);
}

let first: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-tls-"));
  first = await newCertificate();
  server = spawn(process.execPath, [fileURLToPath(new URL("../dist/main.js", import.meta.url))], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: inject("databaseUrl"),
      SIGHTLINE_DATA_DIR: dir,
      SIGHTLINE_ADMIN_KEY: randomBytes(32).toString("base64url"),
      SIGHTLINE_ROLE: "api",
      PORT: "0",
      TLS_CERT_FILE: files().cert,
      TLS_KEY_FILE: files().key,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await until(() => /"url":"https:\/\/127\.0\.0\.1:\d+"/.test(output), "the listening line");
  port = Number(/"url":"https:\/\/127\.0\.0\.1:(\d+)"/.exec(output)?.[1]);
}, 60_000);
afterAll(() => {
  server.kill("SIGKILL");
});

describe("HTTPS", () => {
  it("serves the certificate of TLS_CERT_FILE, with Strict-Transport-Security", async () => {
    const answer = await get("/healthz");
    expect(answer).toEqual({
      status: 200,
      hsts: "max-age=31536000; includeSubDomains",
      fingerprint: first,
    });
  });

  it("serves a new certificate after SIGHUP, without a restart", async () => {
    const second = await newCertificate();
    expect(second).not.toBe(first);
    server.kill("SIGHUP");
    await until(() => output.includes("TLS certificate reloaded"), "the reload");
    expect((await get("/healthz")).fingerprint).toBe(second);
    expect(server.exitCode).toBeNull();
  });
});
