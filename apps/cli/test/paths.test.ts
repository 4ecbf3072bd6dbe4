import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { formatAccessPath, formatPathsSummary } from "../src/format-access-path.ts";
import { findPaths, type PathsCommand, writePathLines } from "../src/paths-command.ts";
import { parsePathsArgs } from "../src/paths-options.ts";
import { UsageError } from "../src/usage.ts";
import { ALICE, HOP, TARGET, writeTwoAccounts } from "./two-accounts.ts";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");

let files: { a: string; b: string };
let fileArgs: string[];
beforeAll(async () => {
  files = await writeTwoAccounts(await mkdtemp(path.join(tmpdir(), "sightline-paths-")));
  fileArgs = ["--authorization-details", files.a, "--authorization-details", files.b];
});

const command = (overrides: Partial<PathsCommand> = {}): PathsCommand => ({
  authorizationDetails: [files.a, files.b],
  resources: [TARGET],
  service: "STS",
  capabilities: ["use-resource"],
  operator: "OR",
  maxNodes: 10,
  ...overrides,
});
const entry = (nodes: string[], truncated = false) => ({
  nodes,
  truncated,
  cycle: false,
  conditional: false,
});

describe("sightline paths", () => {
  it("finds hop next to the target across accounts, and alice through hop", async () => {
    expect(await findPaths(command())).toEqual({
      resourceAccessPaths: {
        [TARGET]: {
          resourceType: "IAMRole",
          accessPaths: [entry([HOP]), entry([HOP, ALICE])],
          complete: true,
        },
      },
    });
  });

  it("marks a path cut by --max-nodes as truncated", async () => {
    const answer = await findPaths(command({ maxNodes: 1 }));
    expect(answer.resourceAccessPaths[TARGET]?.accessPaths).toEqual([entry([HOP], true)]);
  });

  it("streams one line per entry, then a summary per resource", async () => {
    const lines: string[] = [];
    await writePathLines(command({ resources: [TARGET, HOP] }), (line) => {
      lines.push(line);
    });
    expect(lines).toEqual([
      `${TARGET} ← ${HOP}`,
      `${TARGET} ← ${HOP} ← ${ALICE}`,
      `${TARGET}: IAMRole, 2 entries, complete`,
      `${HOP} ← ${ALICE}`,
      `${HOP}: IAMRole, 1 entry, complete`,
    ]);
  });

  it("names every marker and an incomplete list", () => {
    const path = { nodes: ["b", "a"], cycle: true, truncated: true, conditional: true };
    expect(formatAccessPath("r", path)).toBe("r ← b ← a [cycle] [truncated] [conditional]");
    expect(formatPathsSummary("r", { resourceType: "KMSKey", entries: 0, complete: false })).toBe(
      "r: KMSKey, 0 entries, incomplete: the ceiling of entries cut the list",
    );
  });

  it("runs as a command: text by default, endpoint 12's JSON with --json", async () => {
    const text = await run(bin, ["paths", ...fileArgs, "--resource", TARGET, "--max-nodes", "1"]);
    expect(text.stdout).toBe(
      `${TARGET} ← ${HOP} [truncated]\n${TARGET}: IAMRole, 1 entry, complete\n`,
    );
    const json = await run(bin, ["paths", ...fileArgs, "--resource", TARGET, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(await findPaths(command()));
  });
});

describe("sightline paths: usage errors", () => {
  const args = () => [...fileArgs, "--resource", TARGET];

  it("applies the defaults: STS, use-resource, OR, 10 nodes", () => {
    expect(parsePathsArgs(args())).toEqual({ ...command(), json: false });
    expect(
      parsePathsArgs([
        ...args(),
        "--capability",
        "read-data,write-data",
        "--capability",
        "read-data",
      ]).capabilities,
    ).toEqual(["read-data", "write-data"]);
  });

  it.each([
    [["--service", "EC2"], "--service must be one of STS, S3, KMS; got 'EC2'"],
    [
      ["--capability", "own"],
      "--capability must be one of administer-resource, read-config, use-resource, read-data, write-data, delete-data; got 'own'",
    ],
    [["--operator", "XOR"], "--operator must be OR or AND; got 'XOR'"],
    [["--max-nodes", "0"], "--max-nodes must be an integer from 1 to 15; got '0'"],
    [["--max-nodes", "16"], "--max-nodes must be an integer from 1 to 15; got '16'"],
    [["--max-nodes", "2.5"], "--max-nodes must be an integer from 1 to 15; got '2.5'"],
    [
      ["--resource", "role/target"],
      "--resource must be an ARN (arn:<partition>:<service>:...); got 'role/target'",
    ],
  ])("refuses %j", (extra, message) => {
    expect(() => parsePathsArgs([...args(), ...extra])).toThrow(new UsageError(message));
  });

  it("requires the files and a resource", () => {
    expect(() => parsePathsArgs(["--resource", TARGET])).toThrow(
      new UsageError("--authorization-details is required"),
    );
    expect(() => parsePathsArgs(fileArgs)).toThrow(
      new UsageError("--resource is required (repeat it for more resources)"),
    );
  });

  it("exits 2 with the rule and the usage", async () => {
    await expect(run(bin, ["paths", ...args(), "--max-nodes", "99"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /--max-nodes must be an integer from 1 to 15; got '99'\n\nusage:/,
      ),
    });
    await expect(run(bin, ["paths", ...args(), "--out", "x"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown option '--out'"),
    });
  });
});
