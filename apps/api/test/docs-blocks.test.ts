import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  documentationPages,
  parseShellBlocks,
  repoRoot,
  shellBlocks,
  taggingProblem,
} from "./docs-blocks.ts";

// The documentation's shell blocks say whether they run (issue 35), its index lists every page,
// and the README's picture is there. The runnable blocks run in docs-runnable.int.test.ts.

describe("the documentation's shell blocks", () => {
  it("are each tagged sh runnable or sh not-run with a reason", async () => {
    const problems: string[] = [];
    for (const page of await documentationPages())
      for (const block of await shellBlocks(page)) {
        const problem = taggingProblem(block);
        if (problem) problems.push(problem);
      }
    expect(problems).toEqual([]);
  });

  it("are read with their tag and reason, and an untagged or bash block is refused", () => {
    const blocks = parseShellBlocks(
      "page.md",
      [
        "```sh runnable",
        "echo one",
        "```",
        "- a list item:",
        "  ```sh not-run: needs AWS",
        "  aws s3 ls",
        "  ```",
        "```sh not-run",
        "# needs a bucket",
        "aws s3 cp a s3://b/a",
        "```",
        "```sh",
        "echo untagged",
        "```",
        "```bash runnable",
        "echo bash",
        "```",
        "```sh not-run",
        "echo no reason",
        "```",
        "```json",
        '{"not": "shell"}',
        "```",
      ].join("\n"),
    );
    expect(blocks.map((b) => [b.line, b.tag, b.reason, b.text])).toEqual([
      [1, "runnable", "", "echo one"],
      [5, "not-run", "needs AWS", "aws s3 ls"],
      [8, "not-run", "needs a bucket", "# needs a bucket\naws s3 cp a s3://b/a"],
      [12, "", "", "echo untagged"],
      [15, "runnable", "", "echo bash"],
      [18, "not-run", "", "echo no reason"],
    ]);
    expect(blocks.map(taggingProblem).map((p) => p?.replace(/:.*/, ""))).toEqual([
      undefined,
      undefined,
      undefined,
      "page.md",
      "page.md",
      "page.md",
    ]);
  });

  it("include runnable blocks in the README's tour", async () => {
    const runnable = (await shellBlocks("README.md")).filter((b) => b.tag === "runnable");
    expect(runnable.length).toBeGreaterThan(0);
  });
});

describe("the documentation's pages", () => {
  it("are each linked from the index, docs/README.md", async () => {
    const index = await readFile(path.join(repoRoot, "docs/README.md"), "utf8");
    const pages = (await documentationPages()).filter(
      (p) => p.startsWith("docs/") && p !== "docs/README.md",
    );
    const unlinked = pages.filter((p) => !index.includes(`](${p.slice("docs/".length)})`));
    expect(unlinked).toEqual([]);
  });

  it("link to files and headings that exist", async () => {
    const headings = new Map<string, Set<string>>();
    const anchorsOf = async (file: string) => {
      let known = headings.get(file);
      if (!known) {
        known = new Set();
        const text = withoutFences(await readFile(path.join(repoRoot, file), "utf8"));
        for (const [, heading = ""] of text.matchAll(/^#{1,6}\s+(.*)$/gm)) {
          const slug = githubSlug(heading);
          let unique = slug;
          for (let n = 1; known.has(unique); n++) unique = `${slug}-${n}`;
          known.add(unique);
        }
        headings.set(file, known);
      }
      return known;
    };
    const broken: string[] = [];
    for (const page of await documentationPages()) {
      const text = withoutFences(await readFile(path.join(repoRoot, page), "utf8"));
      for (const [, link = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link)) continue; // https:, mailto:
        const [target = "", anchor] = link.split("#");
        const file = target
          ? path.posix.normalize(path.posix.join(path.posix.dirname(page), target))
          : page;
        const exists = await stat(path.join(repoRoot, file)).then(
          () => true,
          () => false,
        );
        if (!exists) broken.push(`${page}: ${link} (no such file)`);
        else if (anchor && file.endsWith(".md") && !(await anchorsOf(file)).has(anchor))
          broken.push(`${page}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README is read in five minutes: at most 200 lines", async () => {
    const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
  });

  it("the README links docs/README.md and shows the console's picture, a PNG kept in the repository", async () => {
    const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
    expect(readme).toContain("](docs/README.md)");
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/images\/console\.png\)/);
    const picture = await readFile(path.join(repoRoot, "docs/images/console.png"));
    expect(picture.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect((await stat(path.join(repoRoot, "docs/images/console.png"))).size).toBeLessThan(400_000);
  });
});

/** A page's text less its fenced blocks (their lines are code, not links or headings). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1\s*$/gm, "");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
