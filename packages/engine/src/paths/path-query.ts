import { CAPABILITIES, type Capability } from "@sightline/capabilities";
import type { ResourceType } from "../analyze/analysis-types.ts";

/** Services whose resources paths can be asked for: roles through STS (the contract), buckets and keys. */
export const PATH_SERVICES = ["STS", "S3", "KMS"] as const;
export type PathService = (typeof PATH_SERVICES)[number];

export const DEFAULT_MAX_ACCESS_PATH_NODES = 10;
export const MAX_ACCESS_PATH_NODES = 15;
export const DEFAULT_MAX_PATH_ENTRIES = 10_000;

export interface AccessPathQuery {
  service: PathService;
  /** Capabilities sought (section 2.7); with STS, `use-resource` means assuming the role. */
  capabilities: readonly Capability[];
  /** `OR` (default): any of the capabilities; `AND`: all of them. */
  operator?: "OR" | "AND";
  /** Longest path, in nodes: 1 to 15, default 10. */
  maxAccessPathNodes?: number;
  /** Ceiling of entries per resource (default 10,000); `complete: false` says it cut the list. */
  maxEntries?: number;
}

/** One entry of section 2.6, with `conditional` as an extension. */
export interface AccessPath {
  /** `nodes[0]` holds the capability on the resource; each later node can assume the one before. */
  nodes: string[];
  /** The path reached `maxAccessPathNodes` while its last node had further predecessors. */
  truncated: boolean;
  /** The last node was already on the path (or is the resource itself). */
  cycle: boolean;
  /** Some step holds only under conditions (trust conditions, conditional capabilities). */
  conditional: boolean;
}

export interface ResourceAccessPaths {
  resourceType: ResourceType;
  accessPaths: AccessPath[];
  /** Extension: false when `maxEntries` cut the list. */
  complete: boolean;
}

/** Streaming form: `paths` yields entries as found and returns whether the list is complete. */
export interface AccessPathStream {
  resourceType: ResourceType;
  paths: Generator<AccessPath, { complete: boolean }>;
}

export interface ResolvedQuery {
  service: PathService;
  capabilities: readonly Capability[];
  operator: "OR" | "AND";
  maxNodes: number;
  maxEntries: number;
}

/**
 * Applies the defaults and checks the query. The API validates requests first; a wrong
 * value here is a programming error and throws a RangeError naming the rule.
 */
export function resolveQuery(query: AccessPathQuery): ResolvedQuery {
  if (!PATH_SERVICES.includes(query.service))
    throw new RangeError(`service must be one of ${PATH_SERVICES.join(", ")}`);
  if (query.capabilities.length === 0) throw new RangeError("capabilities must not be empty");
  for (const c of query.capabilities)
    if (!CAPABILITIES.includes(c))
      throw new RangeError(`capability ${c} is not one of ${CAPABILITIES.join(", ")}`);
  const operator = query.operator ?? "OR";
  if (operator !== "OR" && operator !== "AND") throw new RangeError("operator must be OR or AND");
  const maxNodes = query.maxAccessPathNodes ?? DEFAULT_MAX_ACCESS_PATH_NODES;
  if (!Number.isInteger(maxNodes) || maxNodes < 1 || maxNodes > MAX_ACCESS_PATH_NODES)
    throw new RangeError(
      `maxAccessPathNodes must be an integer from 1 to ${MAX_ACCESS_PATH_NODES}`,
    );
  const maxEntries = query.maxEntries ?? DEFAULT_MAX_PATH_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError("maxEntries must be a positive integer");
  return {
    service: query.service,
    capabilities: [...new Set(query.capabilities)],
    operator,
    maxNodes,
    maxEntries,
  };
}
