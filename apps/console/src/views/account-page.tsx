import type { AccountRef } from "../api.ts";
import { hrefOf, type View } from "../router.ts";
import { AccessPaths } from "./access-paths.tsx";
import { ChangesAndFindings } from "./changes.tsx";
import { EventHealthLine, Events } from "./event-health.tsx";
import { Executions } from "./executions.tsx";
import { Principals } from "./principals.tsx";
import { RunningExecutions } from "./running-executions.tsx";
import { WhoCanView } from "./who-can.tsx";

const TABS: { view: View; label: string }[] = [
  { view: "executions", label: "Executions" },
  { view: "principals", label: "Principals" },
  { view: "who-can", label: "Who can…" },
  { view: "paths", label: "Access paths" },
  { view: "changes", label: "Changes and findings" },
  { view: "events", label: "Events" },
];

/** One account: its views as tabs, each a link (so that it can be bookmarked and gone back to). */
export function AccountPage(props: { account: AccountRef; view: View }) {
  const { account, view } = props;
  const owner =
    account.kind === "partner"
      ? `customer ${account.partnerCustomerId} of partner ${account.partnerId}`
      : `customer ${account.customerId}`;
  return (
    <section>
      <p class="crumbs">
        <a href={hrefOf({ page: "tenants" })}>Accounts</a> › {owner}
      </p>
      <h1>Account {account.accountId}</h1>
      <EventHealthLine account={account} />
      <RunningExecutions account={account} />
      <nav class="tabs" aria-label="Account views">
        {TABS.map((tab) => (
          <a
            key={tab.view}
            href={hrefOf({ page: "account", account, view: tab.view })}
            aria-current={tab.view === view ? "page" : undefined}
          >
            {tab.label}
          </a>
        ))}
      </nav>
      {view === "executions" && <Executions account={account} />}
      {view === "principals" && <Principals account={account} />}
      {view === "who-can" && <WhoCanView account={account} />}
      {view === "paths" && <AccessPaths account={account} />}
      {view === "changes" && <ChangesAndFindings account={account} />}
      {view === "events" && <Events account={account} />}
    </section>
  );
}
