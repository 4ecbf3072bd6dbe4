import dagre from "@dagrejs/dagre";
import { useMemo } from "preact/hooks";
import type { GraphNode, PathGraph } from "./path-graph.ts";

/**
 * Draws a path graph as SVG (no canvas or WebGL: it renders the same in headless Chromium
 * without a GPU, prints, and zooms crisply). Dagre lays it out in ranks, the principals that
 * start the chains on the left and the resource on the right; each account has its colour.
 */

const WIDTH = 190;
const HEIGHT = 46;

function accountClasses(graph: PathGraph): Map<string, number> {
  const accounts = [...new Set(graph.nodes.map((n) => n.account).filter(Boolean))] as string[];
  return new Map(accounts.sort().map((a, i) => [a, i % 8]));
}

export function GraphSvg(props: { graph: PathGraph }) {
  const { graph } = props;
  const layout = useMemo(() => {
    const g = new dagre.graphlib.Graph({ multigraph: false });
    g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 70, marginx: 48, marginy: 24 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of graph.nodes) g.setNode(n.id, { width: WIDTH, height: HEIGHT });
    for (const e of graph.edges) g.setEdge(e.from, e.to);
    dagre.layout(g);
    return g;
  }, [graph]);
  const colours = accountClasses(graph);
  const size = layout.graph();
  const width = Math.max(size.width ?? 0, WIDTH);
  const height = Math.max(size.height ?? 0, HEIGHT);
  return (
    <svg
      class="graph"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      style={{ maxWidth: "100%", height: "auto" }}
      role="img"
      aria-label={`Access graph of ${graph.nodes.length} nodes and ${graph.edges.length} edges; the tables that follow list the same`}
      data-testid="graph-svg"
    >
      <defs>
        <Arrowhead id="arrow" cycle={false} />
        <Arrowhead id="arrow-cycle" cycle={true} />
      </defs>
      {graph.edges.map((e) => {
        const points = layout.edge(e.from, e.to)?.points ?? [];
        const d = points
          .map((p: { x: number; y: number }, i: number) => `${i === 0 ? "M" : "L"} ${p.x} ${p.y}`)
          .join(" ");
        return (
          <path
            key={`${e.from}>${e.to}`}
            d={d}
            class={`edge${e.cycle ? " cycle" : ""}`}
            marker-end={`url(#${e.cycle ? "arrow-cycle" : "arrow"})`}
            data-from={e.from}
            data-to={e.to}
          >
            <title>{`${e.from} can reach ${e.to}${e.cycle ? " (closes a cycle)" : ""}`}</title>
          </path>
        );
      })}
      {graph.nodes.map((n) => {
        const at = layout.node(n.id);
        return (
          <NodeBox
            key={n.id}
            node={n}
            x={(at?.x ?? 0) - WIDTH / 2}
            y={(at?.y ?? 0) - HEIGHT / 2}
            colour={n.account === undefined ? undefined : colours.get(n.account)}
          />
        );
      })}
    </svg>
  );
}

function Arrowhead(props: { id: string; cycle: boolean }) {
  return (
    <marker
      id={props.id}
      viewBox="0 0 10 10"
      refX="10"
      refY="5"
      markerWidth="7"
      markerHeight="7"
      orient="auto-start-reverse"
    >
      <path d="M 0 0 L 10 5 L 0 10 z" class={`arrowhead${props.cycle ? " cycle" : ""}`} />
    </marker>
  );
}

function NodeBox(props: { node: GraphNode; x: number; y: number; colour: number | undefined }) {
  const { node, x, y } = props;
  const classes = [
    "node",
    node.kind,
    props.colour === undefined ? "" : `acct-${props.colour}`,
    node.truncatedBeyond ? "truncated" : "",
    node.closesCycle ? "closes-cycle" : "",
  ].filter(Boolean);
  const label = node.label.length > 24 ? `${node.label.slice(0, 23)}…` : node.label;
  return (
    <g class={classes.join(" ")} transform={`translate(${x} ${y})`} data-id={node.id}>
      <title>{node.id}</title>
      <rect width={WIDTH} height={HEIGHT} rx={node.kind === "account" ? 23 : 6} />
      <text x={10} y={19} class="label">
        {label}
        {node.truncatedBeyond ? " …" : ""}
        {node.closesCycle ? " ↻" : ""}
      </text>
      <text x={10} y={36} class="sub">
        {node.kind}
        {node.account && node.kind !== "account" ? ` · ${node.account}` : ""}
      </text>
    </g>
  );
}
