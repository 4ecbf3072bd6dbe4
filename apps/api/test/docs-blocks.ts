import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shell blocks of the documentation (README.md and every page under docs/): each ```sh
 * block is tagged `runnable` (run against the demo by docs-runnable.int.test.ts) or `not-run`
 * with its reason, on the fence line or as the block's first comment line.
 */

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface ShellBlock {
  /** The page, relative to the repository root. */
  readonly page: string;
  /** The fence's line, 1-based. */
  readonly line: number;
  /** The fence's language word (`sh`, `bash`, …). */
  readonly language: string;
  /** `runnable`, `not-run`, or what else the fence said (an error). */
  readonly tag: string;
  /** A not-run block's reason: the rest of the fence line, or the first comment line. */
  readonly reason: string;
  /** The block's text, less the fence's indentation. */
  readonly text: string;
}

/** Fence languages that are shell: only `sh` is accepted, tagged. */
export const SHELL_LANGUAGES = new Set(["sh", "bash", "shell", "zsh", "console"]);

/** The documentation pages in the order their blocks run: README.md, then docs/ by path. */
export async function documentationPages(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) await walk(relative);
      else if (entry.name.endsWith(".md")) found.push(relative);
    }
  };
  await walk("docs");
  return ["README.md", ...found.sort()];
}

/** Every fenced block of `page` whose language is a shell's. */
export async function shellBlocks(page: string): Promise<ShellBlock[]> {
  return parseShellBlocks(page, await readFile(path.join(repoRoot, page), "utf8"));
}

/** Every fenced block of a page's `markdown` whose language is a shell's. */
export function parseShellBlocks(page: string, markdown: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/.exec(lines[i] ?? "");
    if (!open) continue;
    const [, indent = "", fence = "", language = "", info = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? "";
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    if (SHELL_LANGUAGES.has(language.toLowerCase())) {
      const [word = "", ...rest] = info.trim().split(/\s+/);
      const tag = word.replace(/:$/, ""); // `sh not-run: the reason`
      const firstComment = /^#\s*(.*)$/.exec(body.find((l) => l.trim() !== "") ?? "")?.[1];
      const reason = rest.join(" ").replace(/^[-:—(]\s*/, "") || firstComment || "";
      blocks.push({ page, line: i + 1, language, tag, reason, text: body.join("\n") });
    }
    i = j;
  }
  return blocks;
}

/** What is wrong with a block's tagging, or undefined when it is right. */
export function taggingProblem(block: ShellBlock): string | undefined {
  const where = `${block.page}:${block.line}`;
  if (block.language !== "sh")
    return `${where}: a \`\`\`${block.language} block: write \`\`\`sh runnable or \`\`\`sh not-run <reason>`;
  if (block.tag === "runnable") return undefined;
  if (block.tag === "not-run")
    return block.reason.trim() === ""
      ? `${where}: a not-run block needs its reason on the fence line or as its first comment line`
      : undefined;
  return `${where}: an untagged \`\`\`sh block (tag it \`runnable\` or \`not-run <reason>\`)`;
}
