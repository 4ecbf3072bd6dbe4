import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

/**
 * What the tests that run the built start command (`dist/main.js`) as a process share: its path,
 * its environment against the loopback fake AWS, its JSON log lines, a wait with a deadline and
 * a caller of its API.
 */

/** The built start command: these tests need `turbo run build` first (the API's test task does). */
export const START_COMMAND = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export const DEADLINE_MS = 120_000;

/** Asks `check` every 50 ms until it answers something; throws naming `what` after `deadlineMs`. */
export async function until<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined> | T | undefined,
  deadlineMs = DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      const said = typeof what === "string" ? what : what();
      throw new Error(`${said} did not happen within ${deadlineMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FAKED = ["STS", "IAM", "S3", "KMS", "ORGANIZATIONS", "EC2"];

/** The variables that point the start command's AWS SDK at the fake, with its credentials. */
export function fakeAwsEnv(fake: {
  url: string;
  serviceCredentials: { accessKeyId: string; secretAccessKey: string };
}): Record<string, string> {
  return {
    ...Object.fromEntries(FAKED.map((s) => [`AWS_ENDPOINT_URL_${s}`, fake.url])),
    AWS_ACCESS_KEY_ID: fake.serviceCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: fake.serviceCredentials.secretAccessKey,
    SIGHTLINE_S3_FORCE_PATH_STYLE: "true",
  };
}

/** The JSON log lines a process writes to `stream`, as they come (other lines passed over). */
export function logLines<T extends object>(stream: Readable | null | undefined): T[] {
  const lines: T[] = [];
  let partial = "";
  stream?.on("data", (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts)
      try {
        lines.push(JSON.parse(line) as T);
      } catch {
        // Not a log line.
      }
  });
  return lines;
}

/** Calls the API at `base` with a bearer key (and a JSON body): the status and the JSON answer. */
export function apiCaller(base: string | (() => string)) {
  return async (method: string, route: string, key: string, body?: unknown) => {
    const res = await fetch(`${typeof base === "string" ? base : base()}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}
