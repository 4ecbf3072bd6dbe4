import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@sightline/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/free-port.ts";
import { documentationPages, repoRoot, type ShellBlock, shellBlocks } from "./docs-blocks.ts";

// Docs that run (issue 35): every ```sh runnable block of README.md and docs/*.md runs against
// the demo (apps/api/scripts/demo.ts under tsx: the service against the fake AWS), page by page
// in page order, each page's blocks in one bash session (`set -euo pipefail`), so that variables
// carry from block to block. A block that fails is printed with its output.

/** How long one page's blocks may take in all on a loaded machine. */
const PAGE_DEADLINE_MS = 300_000;
const pages: { page: string; blocks: ShellBlock[] }[] = [];
for (const page of await documentationPages()) {
  const blocks = (await shellBlocks(page)).filter((b) => b.tag === "runnable");
  if (blocks.length > 0) pages.push({ page, blocks });
}

let database: TestDatabase;
let dataDir: string;
let demo: ChildProcess;
let demoOutput = "";
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase(process.env.DATABASE_URL);
  dataDir = await mkdtemp(path.join(tmpdir(), "sightline-docs-"));
  await chmod(dataDir, 0o755);
  const [apiPort, controlPort] = [await freePort(), await freePort()];
  demo = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@sightline/source", "apps/api/scripts/demo.ts"],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? tmpdir(),
        DATABASE_URL: database.url,
        SIGHTLINE_DATA_DIR: dataDir,
        PORT: String(apiPort),
        SIGHTLINE_DEMO_CONTROL_PORT: String(controlPort),
        SIGHTLINE_DRAIN_SECONDS: "5",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const keep = (chunk: Buffer) => {
    demoOutput = (demoOutput + chunk.toString()).slice(-20_000);
  };
  demo.stdout?.on("data", keep);
  demo.stderr?.on("data", keep);
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    API: `http://127.0.0.1:${apiPort}`,
    SIGHTLINE_DATA_DIR: dataDir,
    SIGHTLINE_DEMO_CONTROL: `http://127.0.0.1:${controlPort}`,
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${env.API}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (demo.exitCode !== null) throw new Error(`the demo exited: ${demoOutput}`);
    if (Date.now() > deadline) throw new Error(`the demo was not ready in 120 s: ${demoOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 180_000);

afterAll(async () => {
  if (demo && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo.once("exit", resolve));
    demo.kill("SIGTERM");
    const timer = setTimeout(() => demo.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
  await database?.dispose();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** Runs a page's blocks in one bash session; the output is marked where each block starts. */
function runPage(blocks: ShellBlock[]): Promise<{ code: number | null; output: string }> {
  const script = [
    "set -euo pipefail",
    "exec 2>&1",
    ...blocks.flatMap((block, i) => [`printf '\\n@@docs-block ${i}\\n'`, block.text]),
    "printf '\\n@@docs-block end\\n'",
  ].join("\n");
  return new Promise((resolve, reject) => {
    const bash = spawn("bash", ["-c", script], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    bash.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    bash.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => bash.kill("SIGKILL"), PAGE_DEADLINE_MS);
    bash.on("error", reject);
    bash.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the documentation's runnable blocks, against the demo", () => {
  it("include the README's tour", () => {
    expect(pages.map((p) => p.page)).toContain("README.md");
  });

  it.each(pages)(
    "$page",
    async ({ blocks }) => {
      const { code, output } = await runPage(blocks);
      const marks = [...output.matchAll(/^@@docs-block (\S+)$/gm)];
      const last = marks.at(-1);
      if (code !== 0 || last?.[1] !== "end") {
        const index = Number(last?.[1]);
        const block = blocks[index];
        const shown = block
          ? `${block.page}:${block.line} failed (exit ${code}):\n${block.text}\n--- its output ---\n${output.slice((last?.index ?? 0) + (last?.[0].length ?? 0))}`
          : `exit ${code}:\n${output}`;
        throw new Error(`${shown}\n--- the demo's last lines ---\n${demoOutput.slice(-3000)}`);
      }
      expect(code).toBe(0);
    },
    PAGE_DEADLINE_MS + 10_000,
  );
});
