import { type AccountRef, api } from "../api.ts";
import { Await, Badge, Policies, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";

/** What changed between the account's analyses, and the findings that hold: newest first. */
export function ChangesAndFindings(props: { account: AccountRef }) {
  const changes = useApi(() => api.changes(props.account), [props.account]);
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
              <table class="compact" data-testid="changes">
                <thead>
                  <tr>
                    <th scope="col">Found</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Principal</th>
                    <th scope="col">Access</th>
                    <th scope="col">Before → after</th>
                    <th scope="col">Granted by</th>
                  </tr>
                </thead>
                <tbody>
                  {newestFirst(list, (c) => c.analysisTime).map((c) => (
                    <tr key={c.changeId}>
                      <td>{when(c.analysisTime)}</td>
                      <td>
                        <Badge tone={c.kind.endsWith("-gained") ? "bad" : "plain"}>{c.kind}</Badge>
                        {c.confidential && <Badge tone="warn">confidential</Badge>}
                      </td>
                      <td>
                        <code>{c.principalArn}</code>
                      </td>
                      <td>
                        {[c.serviceName, c.accessCapability, c.resourceArn]
                          .filter(Boolean)
                          .join(" · ")}
                      </td>
                      <td>
                        {c.before} → {c.after}
                      </td>
                      <td>
                        <Policies names={c.grantedBy} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {nextCursor && (
                <p class="muted">
                  The newest 100 changes; the API's changes endpoint pages through the rest.
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
