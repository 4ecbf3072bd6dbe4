import type { WhoAmI } from "@sightline/domain";
import { useState } from "preact/hooks";
import { ApiError, api, signIn, signOut } from "../api.ts";

/** The key is asked for once and kept in memory for this tab only: reloading asks again. */
export function Login(props: { onSignedIn: (caller: WhoAmI) => void }) {
  const [message, setMessage] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const key = (new FormData(form).get("key") ?? "").toString().trim();
    if (!key) return setMessage("Enter the API key of a partner or a direct customer.");
    setBusy(true);
    signIn(key);
    try {
      const caller = await api.whoami();
      if (caller.kind === "operator") {
        signOut();
        setMessage(
          "This is the operator's key. The console shows a partner's or a direct customer's accounts: sign in with one of their keys.",
        );
      } else {
        form.reset();
        props.onSignedIn(caller);
      }
    } catch (error) {
      signOut();
      setMessage(
        error instanceof ApiError && error.status === 401
          ? "This key is not known, or it was revoked."
          : `Could not sign in: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <h1>Sightline</h1>
      <p>Who can do what in your cloud accounts. Read-only.</p>
      <form onSubmit={submit}>
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autocomplete="off" spellcheck={false} required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {message && (
        <p class="error" role="alert">
          {message}
        </p>
      )}
      <p class="muted">
        The key stays in this tab's memory: no cookie is set and nothing is stored. Reloading the
        page signs you out.
      </p>
    </main>
  );
}
