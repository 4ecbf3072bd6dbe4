import { type AccountRef, api } from "../api.ts";
import { Await, Badge, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";
import { ChangeTable } from "./change-rows.tsx";

/** Changes the console reads at most (5 pages). */
const MAX_CHANGES = 5000;

/** What changed between the account's analyses, and the findings that hold: newest first. */
export function ChangesAndFindings(props: { account: AccountRef }) {
  const changes = useApi(() => api.changesUpTo(props.account, MAX_CHANGES), [props.account]);
  const findings = useApi(() => api.findings(props.account), [props.account]);
  return (
    <div>
      <h2>Changes</h2>
      <Await loaded={changes} what="changes">
        {({ changes: list, nextCursor }) =>
          list.length === 0 ? (
            <p class="muted">No changes between the account's analyses yet.</p>
          ) : (
            <>
              <ChangeTable changes={newestFirst(list, (c) => c.analysisTime)} />
              {nextCursor && (
                <p class="muted">
                  The first {MAX_CHANGES.toLocaleString("en")} changes; the API's changes endpoint
                  pages through the rest.
                </p>
              )}
            </>
          )
        }
      </Await>
      <h2>Findings</h2>
      <Await loaded={findings} what="findings">
        {({ findings: list }) =>
          list.length === 0 ? (
            <p class="muted">No findings.</p>
          ) : (
            <table class="compact" data-testid="findings">
              <thead>
                <tr>
                  <th scope="col">Last seen</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Finding</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {newestFirst(list, (f) => f.lastSeen).map((f) => (
                  <tr key={f.findingId}>
                    <td>{when(f.lastSeen)}</td>
                    <td>
                      <Badge
                        tone={
                          f.severity === "high" ? "bad" : f.severity === "medium" ? "warn" : "plain"
                        }
                      >
                        {f.severity}
                      </Badge>
                    </td>
                    <td>
                      <strong>{f.title}</strong>
                      <div class="muted">{f.description}</div>
                    </td>
                    <td>
                      {f.status}
                      {f.resolvedAt && <div class="muted">resolved {when(f.resolvedAt)}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Await>
    </div>
  );
}

/** The API's order, made sure: newest first (a stable sort keeps the API's order within a time). */
function newestFirst<T>(list: readonly T[], time: (item: T) => string): T[] {
  return [...list].sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0));
}
