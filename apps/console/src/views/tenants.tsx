import type { Caller, ExecutionRecord, PartnerDeliveryDestinations } from "@sightline/domain";
import { type AccountRef, api } from "../api.ts";
import { hrefOf } from "../router.ts";
import { Await, Badge, statusTone, when } from "../ui.tsx";
import { useApi } from "../use-api.ts";

/** The caller's customers and accounts, each account with its last executions. */
export function Tenants(props: { caller: Exclude<Caller, { kind: "operator" }> }) {
  const { caller } = props;
  return caller.kind === "partner" ? (
    <PartnerTenants partnerId={caller.partnerId} />
  ) : (
    <DirectCustomer customerId={caller.customerId} />
  );
}

function PartnerTenants(props: { partnerId: string }) {
  const { partnerId } = props;
  const partner = useApi(() => api.partner(partnerId), [partnerId]);
  const customers = useApi(() => api.partnerCustomers(partnerId), [partnerId]);
  return (
    <section>
      <h1>Partner {partnerId}</h1>
      <Destination
        destinations={partner.state === "done" ? partner.value.deliveryDestinations : undefined}
      />
      <Await loaded={customers} what="customers">
        {({ customers: list }) =>
          list.length === 0 ? (
            <p class="muted">No customers yet: PUT /partner/{partnerId}/customer/… adds one.</p>
          ) : (
            list.map((c) => (
              <section class="customer" key={c.partnerCustomerId}>
                <h2>
                  Customer {c.partnerCustomerId} <span class="muted">({c.customerId})</span>
                </h2>
                <PartnerAccounts partnerId={partnerId} partnerCustomerId={c.partnerCustomerId} />
              </section>
            ))
          )
        }
      </Await>
    </section>
  );
}

function PartnerAccounts(props: { partnerId: string; partnerCustomerId: string }) {
  const { partnerId, partnerCustomerId } = props;
  const accounts = useApi(
    () => api.partnerAccounts(partnerId, partnerCustomerId),
    [partnerId, partnerCustomerId],
  );
  return (
    <Await loaded={accounts} what="accounts">
      {(list) => (
        <AccountTable
          accounts={list.map((a) => ({
            ref: { kind: "partner", partnerId, partnerCustomerId, accountId: a.accountId },
            provider: a.provider,
          }))}
        />
      )}
    </Await>
  );
}

function DirectCustomer(props: { customerId: string }) {
  const { customerId } = props;
  const customer = useApi(() => api.customer(customerId), [customerId]);
  const accounts = useApi(() => api.customerAccounts(customerId), [customerId]);
  return (
    <section>
      <h1>
        Customer {customerId}
        {customer.state === "done" && customer.value.name ? ` — ${customer.value.name}` : ""}
      </h1>
      <Destination
        destinations={customer.state === "done" ? customer.value.deliveryDestinations : undefined}
      />
      <Await loaded={accounts} what="accounts">
        {(list) => (
          <AccountTable
            accounts={list.map((a) => ({
              ref: { kind: "customer", customerId, accountId: a.accountId },
              provider: a.provider,
            }))}
          />
        )}
      </Await>
    </section>
  );
}

function Destination(props: { destinations: PartnerDeliveryDestinations | undefined }) {
  const s3 = props.destinations?.DeliverToS3;
  return (
    <p class="muted" data-testid="destination">
      Reports are delivered to{" "}
      {s3 ? (
        <code>
          s3://{s3.bucketName}
          {s3.expectedBucketOwner ? ` (owner ${s3.expectedBucketOwner})` : ""}
        </code>
      ) : (
        "Sightline's local inbox (no S3 bucket configured)"
      )}
      .
    </p>
  );
}

function AccountTable(props: { accounts: { ref: AccountRef; provider: string }[] }) {
  if (props.accounts.length === 0) return <p class="muted">No monitored accounts.</p>;
  return (
    <table class="accounts">
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Provider</th>
          <th scope="col">Last executions</th>
        </tr>
      </thead>
      <tbody>
        {props.accounts.map((a) => (
          <tr key={a.ref.accountId} data-account={a.ref.accountId}>
            <th scope="row">
              <a href={hrefOf({ page: "account", account: a.ref, view: "executions" })}>
                {a.ref.accountId}
              </a>
            </th>
            <td>{a.provider}</td>
            <td>
              <LastExecutions account={a.ref} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LastExecutions(props: { account: AccountRef }) {
  const executions = useApi(() => api.executions(props.account), [props.account.accountId]);
  return (
    <Await loaded={executions} what="executions">
      {(list) =>
        list.length === 0 ? (
          <span class="muted">Never analysed</span>
        ) : (
          <ul class="executions">
            {list.slice(0, 3).map((e) => (
              <ExecutionLine key={e.executionId} execution={e} />
            ))}
          </ul>
        )
      }
    </Await>
  );
}

export function ExecutionLine(props: { execution: ExecutionRecord }) {
  const e = props.execution;
  return (
    <li>
      <Badge tone={statusTone(e.status)}>{e.status}</Badge> {e.kind} · {when(e.createdAt)}
      {e.failure && <span class="error"> — {e.failure.message}</span>}
    </li>
  );
}
