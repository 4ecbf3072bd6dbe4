import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { firstClosedDirectory } from "../src/reachable-by-others.ts";

const root = await mkdtemp(path.join(tmpdir(), "sightline-reach-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("firstClosedDirectory", () => {
  it("names the first directory others cannot enter, and nothing when all are open", async () => {
    await chmod(root, 0o755);
    const open = path.join(root, "open", "data");
    await mkdir(open, { recursive: true, mode: 0o755 });
    expect(await firstClosedDirectory(open)).toBeUndefined();
    const closed = path.join(root, "closed");
    await mkdir(path.join(closed, "inner"), { recursive: true });
    await chmod(closed, 0o700);
    expect(await firstClosedDirectory(path.join(closed, "inner", "data"))).toBe(closed);
  });

  it("stops at a directory that does not exist yet", async () => {
    await chmod(root, 0o755);
    expect(await firstClosedDirectory(path.join(root, "not", "yet"))).toBeUndefined();
  });
});
