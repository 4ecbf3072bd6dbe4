import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";

declare const holds: unique symbol;
/** JSON text of a value of type T, kept to answer many requests without serialising again. */
export type SerializedJson<T> = string & { readonly [holds]: T };

export function serializeJson<T>(value: T): SerializedJson<T> {
  return JSON.stringify(value) as SerializedJson<T>;
}

/**
 * Answers with JSON serialised beforehand. The brand of `json` guarantees it holds a T, so the
 * response is typed as `c.json(value)` would be; only the serialisation is skipped.
 */
export function respondSerialized<T, S extends 200>(
  c: Context,
  json: SerializedJson<T>,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, "json"> {
  const response = c.body(json, status, { "content-type": "application/json" });
  return response as Response &
    TypedResponse<never, S, "body"> &
    TypedResponse<JSONParsed<T>, S, "json">;
}
