import type { ListedPrincipal, PrincipalAccess } from "@sightline/domain";
import { useMemo, useState } from "preact/hooks";
import { type AccountRef, api } from "../api.ts";
import { CAPABILITIES } from "../capabilities.ts";
import { Await, Policies, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";

type Entry = PrincipalAccess["access"][number];

/** One principal: what makes it an IAM admin, and its access per service in the six capabilities. */
export function PrincipalDetail(props: { account: AccountRef; principal: ListedPrincipal }) {
  const p = props.principal;
  const access = useApi(
    () => api.principalAccess(props.account, p.principalArn),
    [props.account, p.principalArn],
  );
  return (
    <div data-testid="principal-detail">
      <h2>{p.principalName}</h2>
      <p>
        <code>{p.principalArn}</code>
      </p>
      <p>
        {p.principalType} · last used {when(p.lastUsed)}
      </p>
      <h3>IAM admin: {p.iamAdmin}</h3>
      {p.iamAdmin !== "no" && (
        <>
          <p>Granted by:</p>
          <div data-testid="granted-by">
            <Policies names={p.iamAdminGrantedBy} />
          </div>
        </>
      )}
      <h3>Access</h3>
      <Await loaded={access} what="access">
        {(value) =>
          value.access.length === 0 ? (
            <p class="muted">No access.</p>
          ) : (
            <AccessMatrix entries={value.access} />
          )
        }
      </Await>
    </div>
  );
}

/** Services as rows, the six capabilities as columns; a service opens to its resources. */
function AccessMatrix(props: { entries: readonly Entry[] }) {
  const [filter, setFilter] = useState("");
  const [open, setOpen] = useState<string | undefined>();
  const services = useMemo(() => {
    const by = new Map<string, Entry[]>();
    for (const e of props.entries) {
      const list = by.get(e.service);
      if (list) list.push(e);
      else by.set(e.service, [e]);
    }
    return [...by.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  }, [props.entries]);
  const shown = services.filter(([name]) => name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <p class="muted">
        {services.length} service{services.length === 1 ? "" : "s"}.{" "}
        <label>
          Service contains{" "}
          <input
            type="search"
            value={filter}
            onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
      </p>
      <div class="matrix-box">
        <table class="compact matrix">
          <thead>
            <tr>
              <th scope="col">Service</th>
              {CAPABILITIES.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map(([service, entries]) => (
              <ServiceRows
                key={service}
                service={service}
                entries={entries}
                open={open === service}
                toggle={() => setOpen(open === service ? undefined : service)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ServiceRows(props: {
  service: string;
  entries: Entry[];
  open: boolean;
  toggle: () => void;
}) {
  const cell = (capability: string) => {
    const held = props.entries.filter((e) => e.capability === capability);
    if (held.length === 0) return <span class="muted">·</span>;
    const everywhere = held.some((e) => e.resource === "*");
    const conditional = held.every((e) => e.conditional);
    return (
      <span class={conditional ? "warn" : ""}>
        {everywhere ? "all" : `${held.length} resource${held.length === 1 ? "" : "s"}`}
        {conditional ? " (conditional)" : ""}
      </span>
    );
  };
  return (
    <>
      <tr>
        <th scope="row">
          <button type="button" class="link" aria-expanded={props.open} onClick={props.toggle}>
            {props.service}
          </button>
        </th>
        {CAPABILITIES.map((c) => (
          <td key={c}>{cell(c)}</td>
        ))}
      </tr>
      {props.open && (
        <tr>
          <td colSpan={CAPABILITIES.length + 1}>
            <table class="compact">
              <thead>
                <tr>
                  <th scope="col">Capability</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Granted by</th>
                </tr>
              </thead>
              <tbody>
                {props.entries.map((a) => (
                  <tr key={`${a.capability}|${a.resource}`}>
                    <td>
                      {a.capability}
                      {a.conditional && <span class="warn"> (conditional)</span>}
                    </td>
                    <td>
                      <code>{a.resource}</code>
                    </td>
                    <td>
                      <Policies names={a.grantedBy} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </>
  );
}
