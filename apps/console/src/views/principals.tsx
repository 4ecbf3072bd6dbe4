import type { ListedPrincipal } from "@sightline/domain";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type AccountRef, ApiError, api } from "../api.ts";
import { Badge } from "../ui.tsx";
import { PrincipalDetail } from "./principal-detail.tsx";
import { VirtualList } from "./virtual-list.tsx";

interface Pages {
  rows: ListedPrincipal[];
  next: string | undefined;
  error?: string;
  done: boolean;
}

/** The account's principals, filterable, with the IAM-admin flag and what grants it. */
export function Principals(props: { account: AccountRef }) {
  const { account } = props;
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [iamAdmin, setIamAdmin] = useState("");
  const [pages, setPages] = useState<Pages>({ rows: [], next: undefined, done: false });
  const [selected, setSelected] = useState<ListedPrincipal | undefined>();
  const generation = useRef(0);
  const loading = useRef<Promise<void> | undefined>(undefined);
  const state = useRef(pages);
  state.current = pages;

  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const fetchPage = useCallback(
    (cursor: string | undefined) => {
      const mine = generation.current;
      const run = api.principals(account, { q, iamAdmin, cursor }).then(
        (page) => {
          if (mine !== generation.current) return;
          const rows = cursor ? [...state.current.rows, ...page.principals] : page.principals;
          state.current = { rows, next: page.nextCursor, done: true };
          setPages(state.current);
        },
        (error: unknown) => {
          if (mine !== generation.current) return;
          const status = error instanceof ApiError ? ` (HTTP ${error.status})` : "";
          state.current = {
            ...state.current,
            error: `${(error as Error).message}${status}`,
            done: true,
          };
          setPages(state.current);
        },
      );
      const tracked: Promise<void> = run.finally(() => {
        if (loading.current === tracked) loading.current = undefined;
      });
      loading.current = tracked;
      return tracked;
    },
    [account, q, iamAdmin],
  );

  useEffect(() => {
    generation.current += 1;
    state.current = { rows: [], next: undefined, done: false };
    setPages(state.current);
    void fetchPage(undefined);
  }, [fetchPage]);

  const loadMore = async () => {
    if (loading.current) return loading.current;
    if (state.current.next) await fetchPage(state.current.next);
  };
  const loadAll = async () => {
    while (state.current.next || loading.current) {
      await (loading.current ?? fetchPage(state.current.next));
      if (state.current.error) return;
    }
  };

  return (
    <div class="split">
      <section class="list-pane">
        <div class="filters">
          <label>
            ARN contains{" "}
            <input
              type="search"
              value={text}
              onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <label>
            IAM admin{" "}
            <select
              value={iamAdmin}
              onChange={(e) => setIamAdmin((e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">any</option>
              <option value="yes">yes</option>
              <option value="conditional">conditional</option>
              <option value="no">no</option>
            </select>
          </label>
        </div>
        <p class="muted" role="status" data-testid="principal-count">
          {!pages.done
            ? "Loading principals…"
            : `${pages.rows.length}${pages.next ? "+" : ""} principal${pages.rows.length === 1 ? "" : "s"}`}
        </p>
        {pages.error && (
          <p class="error" role="alert">
            Could not load principals: {pages.error}
          </p>
        )}
        <VirtualList
          label="Principals"
          items={pages.rows}
          more={pages.next !== undefined}
          loadMore={loadMore}
          loadAll={loadAll}
          id={(p) => p.principalArn}
          selected={selected?.principalArn}
          onSelect={setSelected}
          row={(p) => (
            <>
              <span class="name" title={p.principalArn}>
                {p.principalName}
              </span>
              <span class="muted">{p.principalType}</span>
              {p.iamAdmin !== "no" && (
                <Badge tone={p.iamAdmin === "yes" ? "bad" : "warn"}>
                  {p.iamAdmin === "yes" ? "IAM admin" : "IAM admin, conditional"}
                </Badge>
              )}
            </>
          )}
        />
      </section>
      <section class="detail-pane" aria-live="polite">
        {selected ? (
          <PrincipalDetail account={account} principal={selected} />
        ) : (
          <p class="muted">
            Choose a principal to see what grants it IAM admin and what it can do.
          </p>
        )}
      </section>
    </div>
  );
}
