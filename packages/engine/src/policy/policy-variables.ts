import type { GlobPart } from "./glob.ts";

/** What a request knows about a context key: its values, known to be absent, or unknown. */
export type KeyLookup =
  | { state: "present"; values: readonly string[] }
  | { state: "absent" }
  | { state: "unknown" };

export type KeyResolver = (key: string) => KeyLookup;

const VARIABLE = /\$\{([^}]*)\}/g;

export function hasPolicyVariable(text: string): boolean {
  return text.includes("${");
}

/** Result of putting request values into `${...}` variables of a pattern. */
export type Substitution =
  | {
      state: "resolved";
      /** The pattern in parts: the policy's own text (wildcards unless `wildcards` is false), and the substituted values, always literal. */
      parts: GlobPart[];
      literal: string;
    }
  | { state: "absent"; key: string }
  | { state: "unknown"; key: string };

/**
 * Substitutes policy variables (`${aws:username}`, `${aws:PrincipalTag/team, 'none'}`,
 * and the escapes `${*}`, `${?}`, `${$}`). Substituted text is literal, never a wildcard.
 * When `wildcards` is false the rest of the text is literal too (StringEquals).
 */
export function substituteVariables(
  text: string,
  resolve: KeyResolver,
  wildcards: boolean,
): Substitution {
  const parts: GlobPart[] = [];
  let literal = "";
  let last = 0;
  let unknown: Substitution | undefined;
  for (const match of text.matchAll(VARIABLE)) {
    const before = text.slice(last, match.index);
    parts.push({ text: before, literal: !wildcards });
    literal += before;
    last = match.index + match[0].length;
    const value = resolveVariable(match[1] ?? "", resolve);
    // A variable with no value decides, even after an unknown one: the text cannot match.
    if (value.state === "absent") return value;
    if (value.state === "unknown") unknown ??= value;
    else {
      parts.push({ text: value.text, literal: true });
      literal += value.text;
    }
  }
  if (unknown) return unknown;
  const rest = text.slice(last);
  parts.push({ text: rest, literal: !wildcards });
  literal += rest;
  return { state: "resolved", parts, literal };
}

type VariableValue =
  | { state: "resolved"; text: string }
  | { state: "absent"; key: string }
  | { state: "unknown"; key: string };

function resolveVariable(body: string, resolve: KeyResolver): VariableValue {
  const trimmed = body.trim();
  if (trimmed === "*" || trimmed === "?" || trimmed === "$")
    return { state: "resolved", text: trimmed };
  const defaultMatch = /^([^,]+),\s*'([^']*)'\s*$/.exec(trimmed);
  const key = (defaultMatch ? defaultMatch[1] : trimmed)?.trim() ?? "";
  const lookup = resolve(key);
  if (lookup.state === "present" && lookup.values.length === 1)
    return { state: "resolved", text: lookup.values[0] ?? "" };
  if (lookup.state === "unknown") return { state: "unknown", key };
  // Absent (or multi-valued, which AWS does not substitute): the default applies if given.
  if (defaultMatch) return { state: "resolved", text: defaultMatch[2] ?? "" };
  return { state: "absent", key };
}

/**
 * How the variables of several policy values resolve together: `absent` when one has no
 * value (IAM User Guide, 'IAM policy elements: Variables and tags': such a statement may be
 * invalid), else `unknown` when one is unknown, else `resolved` (also when there are none).
 */
export function variablesState(
  values: readonly string[],
  resolve: KeyResolver,
): "resolved" | "absent" | "unknown" {
  let state: "resolved" | "unknown" = "resolved";
  for (const value of values) {
    if (!hasPolicyVariable(value)) continue;
    const sub = substituteVariables(value, resolve, false);
    if (sub.state === "absent") return "absent";
    if (sub.state === "unknown") state = "unknown";
  }
  return state;
}
