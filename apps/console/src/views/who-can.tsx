import { useState } from "preact/hooks";
import { type AccountRef, api } from "../api.ts";
import { CAPABILITIES } from "../capabilities.ts";
import { Await, Badge, Policies } from "../ui.tsx";
import { useApi } from "../use-api.ts";
import { ResourcePicker } from "./resource-picker.tsx";

/** Who can … a resource: pick it and a capability, see the principals and the granting policies. */
export function WhoCanView(props: { account: AccountRef }) {
  const [resourceArn, setResourceArn] = useState("");
  const [capability, setCapability] = useState("");
  return (
    <div>
      <div class="filters">
        <label>
          Capability{" "}
          <select
            name="capability"
            value={capability}
            onChange={(e) => setCapability((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">any</option>
            {CAPABILITIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ResourcePicker account={props.account} value={resourceArn} onChange={setResourceArn} />
      {resourceArn ? (
        <Holders account={props.account} resourceArn={resourceArn} capability={capability} />
      ) : (
        <p class="muted">Pick a resource to see who can reach it.</p>
      )}
    </div>
  );
}

function Holders(props: { account: AccountRef; resourceArn: string; capability: string }) {
  const answer = useApi(
    () => api.whoCan(props.account, props.resourceArn, props.capability || undefined),
    [props.account, props.resourceArn, props.capability],
  );
  return (
    <Await loaded={answer} what="who can reach it">
      {({ resource, principals, executionId }) => (
        <section data-testid="who-can">
          <h2>
            {resource.resourceName} <span class="muted">({resource.resourceType})</span>
          </h2>
          <p class="muted">
            {principals.length} holder{principals.length === 1 ? "" : "s"}
            {props.capability ? ` of ${props.capability}` : ""} · from analysis{" "}
            <code>{executionId}</code>
            {resource.confidentiality && ` · Confidentiality: ${resource.confidentiality}`}
          </p>
          {principals.length > 0 && (
            <table class="compact">
              <thead>
                <tr>
                  <th scope="col">Principal</th>
                  <th scope="col">Type</th>
                  <th scope="col">Capability</th>
                  <th scope="col">Granted by</th>
                </tr>
              </thead>
              <tbody>
                {principals.map((p) => (
                  <tr key={`${p.principal}|${p.capability}`}>
                    <td>
                      <code>{p.principal}</code>
                      {!p.inAccount && <Badge tone="warn">outside the account</Badge>}
                    </td>
                    <td>{p.principalType}</td>
                    <td>
                      {p.capability}
                      {p.conditional && <span class="warn"> (conditional)</span>}
                    </td>
                    <td>
                      <Policies names={p.grantedBy} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </Await>
  );
}
