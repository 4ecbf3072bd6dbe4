import type { ResourceAccessPath } from "@sightline/domain";
import { useState } from "preact/hooks";
import { type AccountRef, api } from "../api.ts";
import { CAPABILITIES } from "../capabilities.ts";
import { GraphSvg } from "../graph/graph-svg.tsx";
import { type PathGraph, pathGraph } from "../graph/path-graph.ts";
import { Await } from "../ui.tsx";
import { useApi } from "../use-api.ts";
import { ResourcePicker } from "./resource-picker.tsx";

type Service = "STS" | "S3" | "KMS";
interface Ask {
  resourceArn: string;
  service: Service;
  capabilities: string[];
  operator: "OR" | "AND";
  maxNodes: number;
}

const serviceOf = (arn: string): Service =>
  arn.includes(":s3:::") ? "S3" : arn.includes(":kms:") ? "KMS" : "STS";

/** The chains of roles (and accounts) that reach a resource: endpoint 12 drawn and listed. */
export function AccessPaths(props: { account: AccountRef }) {
  const { account } = props;
  const [resourceArn, setResourceArn] = useState("");
  const [service, setService] = useState<Service>("STS");
  const [capabilities, setCapabilities] = useState<string[]>(["use-resource"]);
  const [operator, setOperator] = useState<"OR" | "AND">("OR");
  const [maxNodes, setMaxNodes] = useState(10);
  const [ask, setAsk] = useState<Ask | undefined>();
  if (account.kind !== "partner")
    return (
      <p class="muted">
        Access paths are answered for a partner's accounts (endpoint 12), across all the accounts of
        the partner's customer.
      </p>
    );
  const toggle = (capability: string, on: boolean) =>
    setCapabilities((list) =>
      on ? [...new Set([...list, capability])] : list.filter((c) => c !== capability),
    );
  return (
    <div>
      <ResourcePicker
        account={account}
        value={resourceArn}
        onChange={(arn) => {
          setResourceArn(arn);
          setService(serviceOf(arn));
        }}
      />
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          if (resourceArn && capabilities.length)
            setAsk({ resourceArn, service, capabilities, operator, maxNodes });
        }}
      >
        <label>
          Service{" "}
          <select
            name="service"
            value={service}
            onChange={(e) => setService((e.currentTarget as HTMLSelectElement).value as Service)}
          >
            <option>STS</option>
            <option>S3</option>
            <option>KMS</option>
          </select>
        </label>
        <fieldset>
          <legend>Capabilities</legend>
          {CAPABILITIES.map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={capabilities.includes(c)}
                onChange={(e) => toggle(c, (e.currentTarget as HTMLInputElement).checked)}
              />{" "}
              {c}
            </label>
          ))}
        </fieldset>
        <label>
          Operator{" "}
          <select
            name="operator"
            value={operator}
            onChange={(e) => setOperator((e.currentTarget as HTMLSelectElement).value as "OR")}
          >
            <option>OR</option>
            <option>AND</option>
          </select>
        </label>
        <label>
          At most{" "}
          <input
            type="number"
            name="maxAccessPathNodes"
            min={1}
            max={15}
            value={maxNodes}
            onInput={(e) => setMaxNodes(Number((e.currentTarget as HTMLInputElement).value) || 10)}
          />{" "}
          nodes
        </label>
        <button type="submit" disabled={!resourceArn || capabilities.length === 0}>
          Show access paths
        </button>
      </form>
      {ask && <PathsAnswer account={account} ask={ask} />}
    </div>
  );
}

function PathsAnswer(props: { account: AccountRef & { kind: "partner" }; ask: Ask }) {
  const { ask } = props;
  const answer = useApi(
    () =>
      api.accessPaths(props.account, {
        resourceIds: [ask.resourceArn],
        principalAccessCapabilities: ask.capabilities,
        service: ask.service,
        accessCapabilityOperator: ask.operator,
        maxAccessPathNodes: ask.maxNodes,
      }),
    [props.account, ask],
  );
  return (
    <Await loaded={answer} what="access paths">
      {({ resourceAccessPaths }) => {
        const entry = resourceAccessPaths[ask.resourceArn];
        const paths: ResourceAccessPath[] = entry?.accessPaths ?? [];
        const graph = pathGraph(ask.resourceArn, paths);
        return (
          <section data-testid="access-paths">
            <p role="status">
              {paths.length} access path{paths.length === 1 ? "" : "s"} to{" "}
              <code>{ask.resourceArn}</code> ({entry?.resourceType ?? "unknown type"}):{" "}
              {graph.nodes.length} nodes, {graph.edges.length} edges
              {paths.some((p) => p.cycle) ? "; cycles" : ""}
              {paths.some((p) => p.truncated) ? `; truncated at ${ask.maxNodes} nodes` : ""}.
            </p>
            {paths.length > 0 && (
              <div class="graph-and-list">
                <div class="graph-box">
                  <GraphSvg graph={graph} />
                  <Legend />
                </div>
                <GraphLists graph={graph} paths={paths} />
              </div>
            )}
          </section>
        );
      }}
    </Await>
  );
}

function Legend() {
  return (
    <ul class="legend" aria-label="Legend">
      <li>
        <span class="swatch resource" /> the resource
      </li>
      <li>
        <span class="swatch account" /> a whole account (trusted)
      </li>
      <li>
        <span class="swatch cycle" /> closes a cycle (↻)
      </li>
      <li>
        <span class="swatch truncated" /> cut at the node limit (…)
      </li>
    </ul>
  );
}

/** The same graph as tables a screen reader (or a test) reads: nodes, edges, and the paths. */
function GraphLists(props: { graph: PathGraph; paths: ResourceAccessPath[] }) {
  const { graph } = props;
  return (
    <div class="graph-lists">
      <table class="compact" data-testid="graph-nodes">
        <caption>Nodes</caption>
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Kind</th>
            <th scope="col">Account</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {graph.nodes.map((n) => (
            <tr key={n.id} data-id={n.id}>
              <td>
                <code>{n.id}</code>
              </td>
              <td>{n.kind}</td>
              <td>{n.account ?? "—"}</td>
              <td>
                {[n.truncatedBeyond && "truncated beyond", n.closesCycle && "closes a cycle"]
                  .filter(Boolean)
                  .join("; ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table class="compact" data-testid="graph-edges">
        <caption>Edges (who can reach whom)</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {graph.edges.map((e) => (
            <tr key={`${e.from}>${e.to}`} data-from={e.from} data-to={e.to}>
              <td>
                <code>{e.from}</code>
              </td>
              <td>
                <code>{e.to}</code>
              </td>
              <td>{e.cycle ? "closes a cycle" : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>The {props.paths.length} paths as endpoint 12 lists them</summary>
        <ol class="paths">
          {props.paths.map((p) => (
            <li key={`${p.nodes.join(">")}|${p.cycle}|${p.truncated}`}>
              {[...p.nodes].reverse().join(" → ")} → resource
              {p.cycle ? " (cycle)" : ""}
              {p.truncated ? " (truncated)" : ""}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
