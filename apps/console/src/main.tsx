import type { Caller } from "@sightline/domain";
import { render } from "preact";
import { useState } from "preact/hooks";
import { signOut } from "./api.ts";
import { hrefOf, useRoute } from "./router.ts";
import "./styles.css";
import { AccountPage } from "./views/account-page.tsx";
import { Login } from "./views/login.tsx";
import { Tenants } from "./views/tenants.tsx";

function App() {
  const [caller, setCaller] = useState<Caller | undefined>();
  const route = useRoute();
  if (!caller || caller.kind === "operator") return <Login onSignedIn={setCaller} />;
  const who =
    caller.kind === "partner" ? `partner ${caller.partnerId}` : `customer ${caller.customerId}`;
  return (
    <>
      <header class="top">
        <a class="brand" href={hrefOf({ page: "tenants" })}>
          Sightline
        </a>
        <span class="who" data-testid="caller">
          Signed in as {who}
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
        {route.page === "tenants" ? (
          <Tenants caller={caller} />
        ) : (
          <AccountPage account={route.account} view={route.view} />
        )}
      </main>
    </>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
