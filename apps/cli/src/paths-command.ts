import type { Capability } from "@sightline/capabilities";
import {
  type AccessGraph,
  type AccessPathQuery,
  type AccountModel,
  buildAccessGraph,
  createAccountModel,
  findResourceAccessPaths,
  type PathService,
  type ResourceAccessPaths,
  streamResourceAccessPaths,
} from "@sightline/engine";
import { formatAccessPath, formatPathsSummary } from "./format-access-path.ts";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";

export interface PathsCommand extends SnapshotFiles {
  resources: readonly string[];
  service: PathService;
  capabilities: readonly Capability[];
  operator: "OR" | "AND";
  maxNodes: number;
}

/** Endpoint 12's answer: the entries of each resource, keyed by the resource. */
export interface PathsAnswer {
  resourceAccessPaths: Record<string, ResourceAccessPaths>;
}

async function openAccessGraph(
  files: SnapshotFiles,
): Promise<{ model: AccountModel; graph: AccessGraph }> {
  const model = createAccountModel(await loadSnapshots(files));
  return { model, graph: buildAccessGraph(model) };
}

const queryOf = (command: PathsCommand): AccessPathQuery => ({
  service: command.service,
  capabilities: command.capabilities,
  operator: command.operator,
  maxAccessPathNodes: command.maxNodes,
});

/** `sightline paths --json`: the accounts' graph together, so that chains cross them. */
export async function findPaths(command: PathsCommand): Promise<PathsAnswer> {
  const { model, graph } = await openAccessGraph(command);
  const resourceAccessPaths: Record<string, ResourceAccessPaths> = {};
  for (const resourceId of command.resources) {
    resourceAccessPaths[resourceId] = findResourceAccessPaths(
      graph,
      model,
      resourceId,
      queryOf(command),
    );
  }
  return { resourceAccessPaths };
}

/**
 * `sightline paths`: one line per entry as the engine finds it, never holding the list, then
 * a summary line per resource. `writeLine` may wait, so that a slow reader holds the search.
 */
export async function writePathLines(
  command: PathsCommand,
  writeLine: (line: string) => void | Promise<void>,
): Promise<void> {
  const { model, graph } = await openAccessGraph(command);
  for (const resourceId of command.resources) {
    const stream = streamResourceAccessPaths(graph, model, resourceId, queryOf(command));
    let entries = 0;
    let next = stream.paths.next();
    for (; !next.done; next = stream.paths.next()) {
      entries += 1;
      await writeLine(formatAccessPath(resourceId, next.value));
    }
    const { resourceType } = stream;
    await writeLine(formatPathsSummary(resourceId, { resourceType, entries, ...next.value }));
  }
}
