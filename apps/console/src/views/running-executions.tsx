import type { ExecutionRecord } from "@sightline/domain";
import { useEffect, useState } from "preact/hooks";
import { type AccountRef, api } from "../api.ts";
import { Badge, statusTone } from "../ui.tsx";

/** How often the account's executions are read again while one is queued or running. */
export const POLL_MS = 2000;

const active = (e: ExecutionRecord) => e.status === "queued" || e.status === "running";

const amount = (value: number, unit: string) =>
  unit === "bytes"
    ? `${(value / 2 ** 20).toFixed(1)} MiB`
    : `${value.toLocaleString("en")} ${unit}`;

function elapsed(since: string | undefined, now: number): string {
  if (!since) return "";
  const seconds = Math.max(0, Math.round((now - Date.parse(since)) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

function Line(props: { execution: ExecutionRecord; now: number }) {
  const e = props.execution;
  const p = e.progress;
  return (
    <li data-testid="live-execution" data-status={e.status}>
      <code>{e.executionId}</code> <Badge tone={statusTone(e.status)}>{e.status}</Badge>
      {e.status === "running" && (
        <>
          {" "}
          <strong data-testid="live-stage">{e.stage ?? "starting"}</strong>
          {p && (
            <span data-testid="live-progress">
              {" "}
              <progress value={p.done} max={p.total} /> {amount(p.done, p.unit)} of{" "}
              {amount(p.total, p.unit)}
            </span>
          )}
          <span class="muted"> — running for {elapsed(e.startedAt, props.now)}</span>
        </>
      )}
      {e.status === "queued" && (
        <span class="muted"> — waiting for a worker for {elapsed(e.createdAt, props.now)}</span>
      )}
      {e.failure && (
        <div class="error">
          {e.failure.code}: {e.failure.message}
        </div>
      )}
    </li>
  );
}

/**
 * The account's queued and running executions, live: each one's stage and progress, read again
 * every 2 s while one is queued or running, so that a long analysis is seen moving and a stuck
 * one seen stuck (its stage and count stay while its time runs). One that ends here stays shown
 * with its outcome; nothing is read again once none is active.
 */
export function RunningExecutions(props: { account: AccountRef }) {
  const [shown, setShown] = useState<{ list: ExecutionRecord[]; at: number }>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watched = new Set<string>();
    const read = async () => {
      let next = POLL_MS;
      try {
        const all = await api.executions(props.account);
        if (stopped) return;
        for (const e of all) if (active(e)) watched.add(e.executionId);
        setShown({ list: all.filter((e) => watched.has(e.executionId)), at: Date.now() });
        if (!all.some(active)) return;
      } catch {
        next = POLL_MS * 5;
      }
      if (!stopped) timer = setTimeout(read, next);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.account]);
  if (!shown || shown.list.length === 0) return null;
  return (
    <section aria-live="polite" aria-label="Analyses in progress" data-testid="live-executions">
      <ul>
        {shown.list.map((e) => (
          <Line key={e.executionId} execution={e} now={shown.at} />
        ))}
      </ul>
    </section>
  );
}
