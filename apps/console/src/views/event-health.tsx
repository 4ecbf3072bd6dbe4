import type { EventSourceStatus, ExecutionRecord } from "@sightline/domain";
import { type AccountRef, api } from "../api.ts";
import { Await, Badge, statusTone, when } from "../ui.tsx";
import { type Loaded, useApi } from "../use-api.ts";

/** An account that had events and received none for this long: its rule or connection broke. */
const SILENT_MS = 24 * 3600 * 1000;
/** Event steps the events view lists. */
const LATEST_STEPS = 10;

/** The event source, or `off` when the account has none (404 before the first rotate). */
function useEventSource(account: AccountRef): Loaded<EventSourceStatus | "off"> {
  return useApi(
    () =>
      api.eventSource(account).then(
        (source) => source,
        (error: { status?: number }) => {
          if (error.status === 404) return "off" as const;
          throw error;
        },
      ),
    [account],
  );
}

const silentFor = (source: EventSourceStatus, now: number) =>
  source.lastEventAt ? now - new Date(source.lastEventAt).getTime() : 0;

/** "3 days", "26 hours": how long an account has been silent. */
function duration(ms: number): string {
  const hours = Math.floor(ms / 3600_000);
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${hours} hours`;
}

/**
 * One line on every view of the account: whether its CloudTrail events come in, and a warning
 * when an account that had events has been silent for more than a day.
 */
export function EventHealthLine(props: { account: AccountRef }) {
  const source = useEventSource(props.account);
  if (source.state !== "done") return null;
  const value = source.value;
  if (value === "off")
    return (
      <p class="muted" data-testid="event-health">
        Events off: changes are seen at the next daily analysis.
      </p>
    );
  const silent = silentFor(value, Date.now());
  return (
    <div data-testid="event-health">
      <p class="muted">
        Events on: {value.eventsReceived} received, {value.eventsApplied} applied, last event{" "}
        {when(value.lastEventAt)}.
      </p>
      {silent > SILENT_MS && (
        <p class="warn" role="alert" data-testid="event-silence">
          No event for {duration(silent)}: check the account's EventBridge rule and connection
          (their token may have been rotated).
        </p>
      )}
    </div>
  );
}

function Counters(props: { source: EventSourceStatus }) {
  const s = props.source;
  const rows: [string, string | number][] = [
    ["Received", s.eventsReceived],
    ["Applied", s.eventsApplied],
    ["Refused", s.eventsRefused],
    ["Unknown (left to the daily analysis)", s.unknownEvents],
    ["Last event", when(s.lastEventAt)],
    ["Last applied", when(s.lastAppliedAt)],
    ["Token created", when(s.tokenCreatedAt)],
  ];
  return (
    <table class="compact facts" data-testid="event-source">
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EventSteps(props: { steps: ExecutionRecord[] }) {
  if (props.steps.length === 0) return <p class="muted">No event step yet.</p>;
  return (
    <table data-testid="event-steps">
      <thead>
        <tr>
          <th scope="col">Event step</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
          <th scope="col">Changes</th>
          <th scope="col">Events applied</th>
        </tr>
      </thead>
      <tbody>
        {props.steps.map((e) => (
          <tr key={e.executionId}>
            <td>
              <code>{e.executionId}</code>
            </td>
            <td>
              <Badge tone={statusTone(e.status)}>{e.status}</Badge>
              {e.stage && e.status === "running" && <div class="muted">{e.stage}</div>}
              {e.failure && (
                <div class="error">
                  {e.failure.code}: {e.failure.message}
                </div>
              )}
            </td>
            <td>{when(e.startedAt)}</td>
            <td>{when(e.finishedAt)}</td>
            <td>{e.changes ?? "—"}</td>
            <td>
              <ul class="keys">
                {(e.events ?? []).map((id) => (
                  <li key={id}>
                    <code>{id}</code>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The account's events: what its event source received, and its latest event steps. */
export function Events(props: { account: AccountRef }) {
  const source = useEventSource(props.account);
  const executions = useApi(() => api.executions(props.account, 100), [props.account]);
  return (
    <div>
      <h2>Event source</h2>
      <Await loaded={source} what="the event source">
        {(value) =>
          value === "off" ? (
            <p data-testid="events-off">
              Events off: this account forwards no CloudTrail events, so its changes are seen at the
              next daily analysis. Its event source is switched on with{" "}
              <code>POST …/event-source/rotate</code>.
            </p>
          ) : (
            <Counters source={value} />
          )
        }
      </Await>
      <h2>Latest event steps</h2>
      <Await loaded={executions} what="event steps">
        {(list) => (
          <EventSteps steps={list.filter((e) => e.kind === "event").slice(0, LATEST_STEPS)} />
        )}
      </Await>
    </div>
  );
}
