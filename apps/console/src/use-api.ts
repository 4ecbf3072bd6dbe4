import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; status: number; message: string }
  | { state: "done"; value: T };

/** Runs an API read when its inputs change; a later answer replaces an earlier one, never the reverse. */
export function useApi<T>(read: () => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let current = true;
    setLoaded({ state: "loading" });
    read().then(
      (value) => current && setLoaded({ state: "done", value }),
      (error: unknown) =>
        current &&
        setLoaded({
          state: "failed",
          status: error instanceof ApiError ? error.status : 0,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, inputs);
  return loaded;
}
