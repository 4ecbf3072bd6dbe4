import type { AuditEvent } from "@sightline/domain";
import { useState } from "preact/hooks";
import { api, type Tenant } from "../api.ts";
import { Await, Badge, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";

/** Who changed what in the tenant: its audit trail, newest first, a page at a time. */
export function AuditTrail(props: { tenant: Tenant }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useApi(() => api.auditEvents(props.tenant, cursor), [props.tenant, cursor]);
  return (
    <section>
      <h1>Audit trail</h1>
      <p class="muted">
        Every change to this tenant's configuration, keys and analyses, and every refused request,
        with the key that made it. Secrets are shown only as changed.
      </p>
      <Await loaded={page} what="the audit trail">
        {({ events, nextCursor }) => (
          <>
            {events.length === 0 ? (
              <p class="muted">Nothing recorded yet.</p>
            ) : (
              <table class="compact" data-testid="audit-events">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">Status</th>
                    <th scope="col">Changes</th>
                  </tr>
                </thead>
                <tbody>
                  {events.map((e) => (
                    <tr key={e.id}>
                      <td>{when(e.at)}</td>
                      <td>
                        {e.actor.name}
                        {e.actor.keyId && e.actor.name !== `key ${e.actor.keyId}` && (
                          <div class="muted">{e.actor.keyId}</div>
                        )}
                      </td>
                      <td>
                        <code>{e.action}</code>
                      </td>
                      <td>
                        <Badge tone={e.status < 300 ? "good" : e.status === 403 ? "warn" : "bad"}>
                          {e.status}
                        </Badge>
                      </td>
                      <td>
                        <Changes changes={e.changes} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p>
              {cursors.length > 0 && (
                <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
                  Newer
                </button>
              )}{" "}
              {nextCursor && (
                <button type="button" onClick={() => setCursors([...cursors, nextCursor])}>
                  Older
                </button>
              )}
            </p>
          </>
        )}
      </Await>
    </section>
  );
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function Changes(props: { changes: AuditEvent["changes"] }) {
  const entries = Object.entries(props.changes);
  if (entries.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="policies">
      {entries.map(([field, change]) => (
        <li key={field}>
          <code>{field}</code>:{" "}
          {change === "changed" ? (
            <em>changed</em>
          ) : (
            <>
              {text(change.old)} → {text(change.new)}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
