import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GRAPH_APPLICATION_PERMISSIONS } from "../src/collect/read-graph.ts";

const deploy = (path: string) =>
  readFileSync(new URL(`../../../deploy/azure/${path}`, import.meta.url), "utf8");
const GRAPH_PERMISSION = /\b[A-Z][A-Za-z]+\.(?:Read|ReadWrite|ReadBasic)\.[A-Za-z]+\b/g;
const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

// Code, not comments: what a template grants, not what it explains.
const code = (text: string, comment: RegExp) =>
  text
    .split("\n")
    .filter((line) => !comment.test(line))
    .join("\n");

const TEMPLATES = [
  { file: "grant-sightline.sh", comment: /^\s*#/, reader: /--role "Reader"/ },
  {
    file: "sightline-access.bicep",
    comment: /^\s*\/\//,
    reader: /readerRoleId = 'acdd72a7-3385-48ef-bd42-f606fba81ae7'/,
  },
  { file: "terraform/main.tf", comment: /^\s*#/, reader: /role_definition_name = "Reader"/ },
];

describe("the deploy/azure templates", () => {
  it.each(TEMPLATES)(
    "$file grants exactly the collector's Graph permissions and Reader, nothing else",
    ({ file, comment, reader }) => {
      const text = code(deploy(file), comment);
      expect(sorted(text.match(GRAPH_PERMISSION) ?? [])).toEqual(
        sorted(GRAPH_APPLICATION_PERMISSIONS),
      );
      expect(text).toMatch(reader);
      // Read-only: no write permission, no other role.
      for (const broader of [
        "ReadWrite",
        "Directory.Read.All",
        "Contributor",
        "Owner",
        "User Access Administrator",
      ])
        expect(text, broader).not.toContain(broader);
    },
  );

  it("the README lists the same permissions as the templates", () => {
    const readme = deploy("README.md");
    for (const permission of GRAPH_APPLICATION_PERMISSIONS) expect(readme).toContain(permission);
  });
});
