import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { ResourceAccessPathsRequest, ResourceAccessPathsResponse } from "@sightline/domain";
import {
  type AccessGraph,
  type AccountModel,
  type AccountSnapshot,
  buildAccessGraph,
  createAccountModel,
  findResourceAccessPaths,
} from "@sightline/engine";
import { AccessGraphCache } from "./access-graph-cache.ts";

const gunzipAsync = promisify(gunzip);

export interface BuiltGraph {
  model: AccountModel;
  graph: AccessGraph;
}

/** Stored snapshots' bytes: gzip-compressed JSON of what collection found, as stored. */
export type SnapshotData = readonly Uint8Array[];

/** The account snapshots of stored collections; Azure subscriptions take no part in paths. */
async function snapshotsOf(data: SnapshotData): Promise<AccountSnapshot[]> {
  const snapshots: AccountSnapshot[] = [];
  for (const bytes of data) {
    const collected = JSON.parse((await gunzipAsync(bytes)).toString("utf8")) as {
      snapshot: AccountSnapshot;
      metadata?: { provider?: string };
    };
    if (collected.metadata?.provider !== "azure") snapshots.push(collected.snapshot);
  }
  return snapshots;
}

/**
 * The access graphs of customers' snapshot sets and the paths through them (endpoint 12),
 * wherever they are held: in the access-path worker thread, or on the calling thread (the
 * bench's baseline). A graph is built from the snapshots' bytes once per key (the key names
 * every snapshot it is built from) and kept for the next requests, the last few keys used.
 */
export class AccessPathGraphs {
  readonly #graphs: AccessGraphCache<BuiltGraph>;

  constructor(maxGraphs = 4) {
    this.#graphs = new AccessGraphCache<BuiltGraph>(maxGraphs);
  }

  /** `snapshots` is called only when no graph of `key` is held or being built. */
  async answer(
    key: string,
    request: ResourceAccessPathsRequest,
    snapshots: () => Promise<SnapshotData>,
  ): Promise<ResourceAccessPathsResponse> {
    const { model, graph } = await this.#graphs.get(key, async () => {
      const built = createAccountModel(await snapshotsOf(await snapshots()));
      return { model: built, graph: buildAccessGraph(built) };
    });
    const answer: ResourceAccessPathsResponse["resourceAccessPaths"] = {};
    for (const resourceId of request.resourceIds) {
      answer[resourceId] = findResourceAccessPaths(graph, model, resourceId, {
        service: request.service,
        capabilities: request.principalAccessCapabilities,
        operator: request.accessCapabilityOperator,
        maxAccessPathNodes: request.maxAccessPathNodes,
      });
    }
    return { resourceAccessPaths: answer };
  }
}
