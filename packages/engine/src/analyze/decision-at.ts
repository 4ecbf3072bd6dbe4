import type { PrefixWindow } from "./action-index.ts";
import { hasBit } from "./bits.ts";
import type { TriSet } from "./tri-set.ts";

/** Allowed, allowed under conditions, or denied (implicitly or explicitly) for one catalogue action. */
export type AccessLevel = "allowed" | "conditional" | "denied";

export function accessAt(set: TriSet, window: PrefixWindow, actionIndex: number): AccessLevel {
  const bit = actionIndex - window.firstWord * 32;
  if (hasBit(set.sure, bit)) return "allowed";
  return hasBit(set.maybe, bit) ? "conditional" : "denied";
}
