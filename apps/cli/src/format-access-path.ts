import type { AccessPath, ResourceAccessPaths } from "@sightline/engine";

const ARROW = " ← ";

/** One entry on a line: the resource, then each node that reaches the one before it. */
export function formatAccessPath(resourceId: string, path: AccessPath): string {
  const markers = [
    path.cycle ? " [cycle]" : "",
    path.truncated ? " [truncated]" : "",
    path.conditional ? " [conditional]" : "",
  ].join("");
  return `${[resourceId, ...path.nodes].join(ARROW)}${markers}`;
}

/** The line after a resource's entries: its type, how many, and whether the ceiling cut them. */
export function formatPathsSummary(
  resourceId: string,
  summary: Pick<ResourceAccessPaths, "resourceType" | "complete"> & { entries: number },
): string {
  const entries = `${summary.entries} ${summary.entries === 1 ? "entry" : "entries"}`;
  const complete = summary.complete
    ? "complete"
    : "incomplete: the ceiling of entries cut the list";
  return `${resourceId}: ${summary.resourceType}, ${entries}, ${complete}`;
}
