import { describe, expect, it } from "vitest";
import {
  type AccessPath,
  type AccessPathQuery,
  type AccountSnapshot,
  buildAccessGraph,
  createAccountModel,
  findResourceAccessPaths,
} from "../src/index.ts";
import { readFixtures } from "./support/fixture-files.ts";

interface PathFixture {
  description: string;
  accounts: AccountSnapshot[];
  queries: {
    name: string;
    resource: string;
    query: AccessPathQuery;
    expect: { resourceType: string; complete: boolean; accessPaths: AccessPath[] };
  }[];
}

const fixtures = readFixtures<PathFixture>("paths");
const sorted = (paths: readonly AccessPath[]) => paths.map((p) => JSON.stringify(p)).sort();

describe("resource access path fixtures", () => {
  for (const { name, fixture } of fixtures) {
    describe(name, () => {
      const model = createAccountModel(fixture.accounts);
      const graph = buildAccessGraph(model);
      it("parses without errors", () => {
        expect(model.issues.filter((i) => i.severity === "error")).toEqual([]);
      });
      for (const q of fixture.queries) {
        it(q.name, () => {
          const result = findResourceAccessPaths(graph, model, q.resource, q.query);
          expect(result.resourceType).toBe(q.expect.resourceType);
          expect(result.complete).toBe(q.expect.complete);
          expect(sorted(result.accessPaths)).toEqual(sorted(q.expect.accessPaths));
          // Every entry appears once.
          expect(new Set(sorted(result.accessPaths)).size).toBe(result.accessPaths.length);
        });
      }
    });
  }
});
