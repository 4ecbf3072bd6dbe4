import { useEffect, useState } from "preact/hooks";
import { type AccountRef, api } from "../api.ts";
import { Await } from "../ui.tsx";
import { useApi } from "../use-api.ts";

/**
 * Picks one of the account's analysed resources: type part of its ARN, choose from the matches,
 * or give a whole ARN (or an Azure resource ID) directly.
 */
export function ResourcePicker(props: {
  account: AccountRef;
  value: string;
  onChange: (resourceArn: string) => void;
  label?: string;
}) {
  const [text, setText] = useState(props.value);
  const [q, setQ] = useState(props.value);
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const matches = useApi(() => api.resources(props.account, q ? { q } : {}), [props.account, q]);
  return (
    <div class="picker">
      <label>
        {props.label ?? "Resource"}{" "}
        <input
          type="search"
          name="resource"
          value={text}
          placeholder="part of an ARN, or the whole ARN"
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              props.onChange(text.trim());
            }
          }}
        />
      </label>
      {matches.state === "failed" && matches.status === 409 ? (
        <p class="muted">
          This account has no stored analysis to list its resources from: type the whole ARN and
          press Enter.
        </p>
      ) : (
        <Await loaded={matches} what="resources">
          {({ resources, nextCursor }) => (
            <ul class="matches" aria-label="Matching resources">
              {resources.map((r) => (
                <li key={r.resourceArn}>
                  <button
                    type="button"
                    class={r.resourceArn === props.value ? "chosen" : ""}
                    aria-pressed={r.resourceArn === props.value}
                    onClick={() => {
                      setText(r.resourceArn);
                      props.onChange(r.resourceArn);
                    }}
                  >
                    <code>{r.resourceArn}</code> <span class="muted">{r.resourceType}</span>
                  </button>
                </li>
              ))}
              {resources.length === 0 && <li class="muted">No analysed resource matches.</li>}
              {nextCursor && <li class="muted">More match: type more of the ARN.</li>}
            </ul>
          )}
        </Await>
      )}
    </div>
  );
}
