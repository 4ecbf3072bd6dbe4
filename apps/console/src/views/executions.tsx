import { type AccountRef, api } from "../api.ts";
import { Await, Badge, statusTone, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";

/** The account's executions, newest first: status, times, failure, and what was delivered. */
export function Executions(props: { account: AccountRef }) {
  const executions = useApi(() => api.executions(props.account), [props.account]);
  return (
    <Await loaded={executions} what="executions">
      {(list) =>
        list.length === 0 ? (
          <p class="muted">This account has not been analysed yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Execution</th>
                <th scope="col">Status</th>
                <th scope="col">Queued</th>
                <th scope="col">Started</th>
                <th scope="col">Finished</th>
                <th scope="col">Changes</th>
                <th scope="col">Delivered</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.executionId}>
                  <td>
                    <code>{e.executionId}</code>
                    <div class="muted">{e.kind}</div>
                  </td>
                  <td>
                    <Badge tone={statusTone(e.status)}>{e.status}</Badge>
                    {e.failure && (
                      <div class="error">
                        {e.failure.code}: {e.failure.message}
                      </div>
                    )}
                    {e.warnings.length > 0 && (
                      <div class="warn">
                        {e.warnings.length} warning{e.warnings.length === 1 ? "" : "s"}:{" "}
                        {e.warnings[0]?.message}
                      </div>
                    )}
                  </td>
                  <td>{when(e.createdAt)}</td>
                  <td>{when(e.startedAt)}</td>
                  <td>{when(e.finishedAt)}</td>
                  <td>
                    {e.changes ?? "—"}
                    {e.findings !== undefined && <div class="muted">{e.findings} findings</div>}
                  </td>
                  <td>
                    {e.reports.length === 0 ? (
                      <span class="muted">nothing</span>
                    ) : (
                      <details>
                        <summary>
                          {e.reports.length} objects, manifest <code>{e.reports.at(-1)}</code>
                        </summary>
                        <ul class="keys">
                          {e.reports.map((key) => (
                            <li key={key}>
                              <code>{key}</code>
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Await>
  );
}
