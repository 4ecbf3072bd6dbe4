import type { ComponentChildren } from "preact";
import type { Loaded } from "./use-api.ts";

/** What every view shows while it reads, when a read failed, and around what it read. */
export function Await<T>(props: {
  loaded: Loaded<T>;
  what: string;
  children: (value: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === "loading")
    return (
      <p class="muted" role="status">
        Loading {props.what}…
      </p>
    );
  if (loaded.state === "failed")
    return (
      <p class="error" role="alert">
        Could not load {props.what}: {loaded.message}
        {loaded.status ? ` (HTTP ${loaded.status})` : ""}
      </p>
    );
  return <>{props.children(loaded.value)}</>;
}

export const when = (iso: string | undefined) =>
  iso
    ? new Date(iso)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, " UTC")
    : "—";

export function Badge(props: {
  tone: "good" | "bad" | "warn" | "plain";
  children: ComponentChildren;
}) {
  return <span class={`badge ${props.tone}`}>{props.children}</span>;
}

export const statusTone = (status: string) =>
  status === "succeeded" ? "good" : status === "failed" ? "bad" : "warn";

export function Policies(props: { names: readonly string[] }) {
  if (props.names.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="policies">
      {props.names.map((name) => (
        <li key={name}>
          <code>{name}</code>
        </li>
      ))}
    </ul>
  );
}
