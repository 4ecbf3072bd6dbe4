import type { WhoAmI } from "@sightline/domain";
import { render } from "preact";
import { useState } from "preact/hooks";
import { signOut } from "./api.ts";
import { hrefOf, useRoute } from "./router.ts";
import "./styles.css";
import { AccountPage } from "./views/account-page.tsx";
import { AuditTrail } from "./views/audit-trail.tsx";
import { Login } from "./views/login.tsx";
import { Tenants } from "./views/tenants.tsx";

function App() {
  const [caller, setCaller] = useState<WhoAmI | undefined>();
  const route = useRoute();
  if (!caller || caller.kind === "operator") return <Login onSignedIn={setCaller} />;
  const who =
    caller.kind === "partner" ? `partner ${caller.partnerId}` : `customer ${caller.customerId}`;
  // The console only reads: a key without `read` can show nothing, so it says so and no more.
  const canRead = caller.scopes.includes("read");
  return (
    <>
      <header class="top">
        <a class="brand" href={hrefOf({ page: "tenants" })}>
          Sightline
        </a>
        {canRead && <a href={hrefOf({ page: "audit" })}>Audit trail</a>}
        <span class="who" data-testid="caller">
          Signed in as {who}{" "}
          <span class="muted">
            ({caller.name}: {caller.scopes.join(", ")})
          </span>
        </span>
        <button
          type="button"
          onClick={() => {
            signOut();
            setCaller(undefined);
            location.hash = "#/";
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {!canRead ? (
          <p class="error" role="alert" data-testid="no-read">
            This key ({caller.scopes.join(", ")}) cannot read: the console needs a key with the read
            scope.
          </p>
        ) : route.page === "tenants" ? (
          <Tenants caller={caller} />
        ) : route.page === "audit" ? (
          <AuditTrail tenant={caller} />
        ) : (
          <AccountPage account={route.account} view={route.view} />
        )}
      </main>
    </>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
