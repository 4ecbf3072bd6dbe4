import type { ListedChange } from "@sightline/domain";
import { type ChangeGroup, groupChangesByCause } from "@sightline/domain/change-groups";
import { useState } from "preact/hooks";
import { Badge, Policies, when } from "../ui.tsx";

/** One change as a row of the changes table. */
function ChangeRow(props: { change: ListedChange; folded?: boolean }) {
  const c = props.change;
  return (
    <tr class={props.folded ? "folded" : undefined}>
      <td>{when(c.analysisTime)}</td>
      <td>
        <Badge tone={c.kind.endsWith("-gained") ? "bad" : "plain"}>{c.kind}</Badge>
        {c.confidential && <Badge tone="warn">confidential</Badge>}
      </td>
      <td>
        <code>{c.principalArn}</code>
      </td>
      <td>{[c.serviceName, c.accessCapability, c.resourceArn].filter(Boolean).join(" · ")}</td>
      <td>
        {c.before} → {c.after}
      </td>
      <td>
        <Policies names={c.grantedBy} />
      </td>
    </tr>
  );
}

let groupIds = 0;

/**
 * A group of changes with one cause: one line ("bob became an IAM admin — granted by
 * AdministratorAccess") whose button unfolds every change of the group.
 */
function GroupRows(props: { group: ChangeGroup<ListedChange> }) {
  const { head, changes, title, more } = props.group;
  const [open, setOpen] = useState(false);
  const [id] = useState(() => `change-group-${++groupIds}`);
  return (
    <>
      <tbody data-testid="change-group">
        <tr class="group">
          <td>{when(head.analysisTime)}</td>
          <td>
            <Badge tone={head.kind.endsWith("-gained") ? "bad" : "plain"}>{head.kind}</Badge>
          </td>
          <td>
            <code>{head.principalArn}</code>
          </td>
          <td colSpan={3}>
            <strong>{title}</strong>{" "}
            <button
              type="button"
              aria-expanded={open}
              aria-controls={id}
              onClick={() => setOpen(!open)}
            >
              {more}
            </button>
          </td>
        </tr>
      </tbody>
      <tbody id={id} data-testid="change-group-rows">
        {open && changes.map((c) => <ChangeRow key={c.changeId} change={c} folded />)}
      </tbody>
    </>
  );
}

/** The changes table: a change per row, the changes of one cause folded into one line. */
export function ChangeTable(props: { changes: readonly ListedChange[] }) {
  return (
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
      {groupChangesByCause(props.changes).map((group) =>
        group.changes.length === 1 ? (
          <tbody key={group.head.changeId}>
            <ChangeRow change={group.head} />
          </tbody>
        ) : (
          <GroupRows key={group.head.changeId} group={group} />
        ),
      )}
    </table>
  );
}
