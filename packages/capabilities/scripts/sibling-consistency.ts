import { splitActionName } from "../src/action-words.ts";
import { type AwsActionInfo, listAwsActions } from "../src/aws-catalogue.ts";
import type { Capability } from "../src/capability.ts";
import { SIBLING_EXCEPTIONS } from "./sibling-exceptions.ts";

// Sibling consistency: actions that act on the same thing must classify alike, or carry a
// documented exception (scripts/sibling-exceptions.ts). Three checks:
// - `put-get-delete`: the Put of a noun and its Get or Delete in one service act on the same
//   thing, so if one of a pair treats it as data the other must too: `PutItem` write-data with
//   `GetItem` read-config is a contradiction one of the two carries. Get and Delete are not
//   paired: deleting a table destroys its items, while getting it returns its description.
// - `suffix`: within one service, names that differ only by a known qualifier (a `Batch` prefix
//   or suffix, `WithIAM`, `Async`, `Stream`, `WithResponseStream`) have the same capabilities:
//   `BatchGetItem` as `GetItem`, `GetClusterCredentialsWithIAM` as `GetClusterCredentials`.
// - `family`: the same action name in services of one family (prefixes sharing their first word:
//   `s3`, `s3-outposts`, `s3-object-lambda`; `redshift`, `redshift-serverless`; `waf`,
//   `waf-regional`, `wafv2`; `codestar-connections` and its successor `codeconnections`) has the
//   same capabilities.

export type SiblingCheck = "put-get-delete" | "suffix" | "family";

export const SIBLING_CHECKS: Readonly<Record<SiblingCheck, string>> = {
  "put-get-delete": "Put and its Get or Delete of one noun agree on data",
  suffix: "names differing only by Batch, WithIAM, Async or Stream classify alike",
  family: "one action name in services of one family classifies alike",
};

export interface SiblingViolation {
  check: SiblingCheck;
  /** What the siblings share: `s3:Object Tagging`, `redshift:GetClusterCredentials`, `s3:ListBucket`. */
  noun: string;
  /** The sibling it is compared with, with its capabilities: `s3:PutObjectTagging [write-data]`. */
  data: string;
  /** The action that disagrees, e.g. `s3:GetObjectTagging`; exceptions are keyed by it. */
  other: string;
  otherCapabilities: readonly Capability[];
  reason?: string;
}

/** The capability each verb has when its noun is data. */
const DATA_CAPABILITY: Readonly<Record<string, Capability>> = {
  Get: "read-data",
  Put: "write-data",
  Delete: "delete-data",
};
const PAIRS: readonly (readonly [string, string])[] = [
  ["Put", "Get"],
  ["Put", "Delete"],
];

const nameOf = (a: AwsActionInfo) => a.action.slice(a.prefix.length + 1);
const sameSet = (a: readonly Capability[], b: readonly Capability[]) =>
  a.length === b.length && a.every((c) => b.includes(c));
const describe = (a: AwsActionInfo) => `${a.action} [${a.capabilities.join(", ")}]`;

function violation(
  check: SiblingCheck,
  noun: string,
  sibling: AwsActionInfo,
  other: AwsActionInfo,
): SiblingViolation {
  const reason = SIBLING_EXCEPTIONS[other.action];
  return {
    check,
    noun,
    data: describe(sibling),
    other: other.action,
    otherCapabilities: other.capabilities,
    ...(reason ? { reason } : {}),
  };
}

function putGetDelete(actions: readonly AwsActionInfo[]): SiblingViolation[] {
  // prefix + noun -> verb -> actions
  const groups = new Map<string, Map<string, AwsActionInfo[]>>();
  for (const a of actions) {
    const { verb, noun } = splitActionName(nameOf(a));
    if (!(verb in DATA_CAPABILITY) || noun.length === 0) continue;
    const key = `${a.prefix}:${noun.join(" ")}`;
    const byVerb = groups.get(key) ?? new Map<string, AwsActionInfo[]>();
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), a]);
    groups.set(key, byVerb);
  }
  const violations: SiblingViolation[] = [];
  const isData = (a: AwsActionInfo, verb: string) =>
    a.capabilities.includes(DATA_CAPABILITY[verb] as Capability);
  for (const [noun, byVerb] of [...groups].sort(([x], [y]) => (x < y ? -1 : 1))) {
    for (const pair of PAIRS) {
      for (const [dataVerb, otherVerb] of [pair, [pair[1], pair[0]] as const]) {
        const dataSibling = (byVerb.get(dataVerb) ?? []).find((a) => isData(a, dataVerb));
        if (!dataSibling) continue;
        for (const other of byVerb.get(otherVerb) ?? []) {
          compared["put-get-delete"]++;
          if (isData(other, otherVerb)) continue;
          violations.push(violation("put-get-delete", noun, dataSibling, other));
        }
      }
    }
  }
  return violations;
}

const QUALIFIER_SUFFIXES = ["WithResponseStream", "WithIAM", "Async", "Stream", "Batch"];

/** The plain names a qualified name may be a variant of: `BatchGetItems` -> `GetItems`, `GetItem`. */
export function plainNames(name: string): string[] {
  const bases = new Set<string>();
  if (/^Batch[A-Z]/.test(name)) bases.add(name.slice("Batch".length));
  for (const suffix of QUALIFIER_SUFFIXES) {
    const rest = name.slice(0, -suffix.length);
    if (name.endsWith(suffix) && /[a-z][A-Z][a-z]/.test(rest)) bases.add(rest);
  }
  // `BatchDeleteClusterSnapshots` is the batch of `DeleteClusterSnapshot`.
  if (name.startsWith("Batch"))
    for (const b of [...bases]) if (b.endsWith("s")) bases.add(b.slice(0, -1));
  bases.delete(name);
  return [...bases];
}

/** Pairs (or family members) each check compared, for the report. */
const compared: Record<SiblingCheck, number> = { "put-get-delete": 0, suffix: 0, family: 0 };

function suffixVariants(actions: readonly AwsActionInfo[]): SiblingViolation[] {
  const byName = new Map(actions.map((a) => [a.action.toLowerCase(), a]));
  const violations: SiblingViolation[] = [];
  for (const a of actions) {
    for (const base of plainNames(nameOf(a))) {
      const plain = byName.get(`${a.prefix}:${base}`.toLowerCase());
      if (!plain) continue;
      compared.suffix++;
      if (sameSet(plain.capabilities, a.capabilities)) continue;
      violations.push(violation("suffix", plain.action, plain, a));
    }
  }
  return violations;
}

/** Renamed services whose prefixes share no first word. */
const FAMILY_ALIASES: Readonly<Record<string, string>> = {
  codeconnections: "codestar",
  dax: "dynamodb",
  "docdb-elastic": "rds",
  memorydb: "elasticache",
  es: "opensearch",
  aoss: "opensearch",
  s3express: "s3",
  s3tables: "s3",
  s3vectors: "s3",
};
/** First words that name no family (`aws-marketplace`, `aws-portal`). */
const NOT_A_FAMILY = new Set(["aws"]);

/** `s3-outposts` -> `s3`, `wafv2` -> `waf`; undefined when the prefix belongs to no family. */
export function serviceFamily(prefix: string): string | undefined {
  const family = FAMILY_ALIASES[prefix] ?? (prefix.split("-")[0] ?? prefix).replace(/v\d+$/, "");
  return NOT_A_FAMILY.has(family) ? undefined : family;
}

function families(actions: readonly AwsActionInfo[]): SiblingViolation[] {
  const groups = new Map<string, AwsActionInfo[]>();
  for (const a of actions) {
    const family = serviceFamily(a.prefix);
    if (!family) continue;
    const key = `${family}:${nameOf(a)}`.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const violations: SiblingViolation[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    // The reference is the family's own prefix (`s3` for `s3-outposts`), else the most common set.
    const family = serviceFamily(group[0]?.prefix ?? "");
    const counts = new Map<string, number>();
    for (const a of group) {
      const k = a.capabilities.join("+");
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const reference =
      group.find((a) => a.prefix === family) ??
      [...group].sort(
        (x, y) =>
          (counts.get(y.capabilities.join("+")) ?? 0) -
            (counts.get(x.capabilities.join("+")) ?? 0) || (x.prefix < y.prefix ? -1 : 1),
      )[0];
    if (!reference) continue;
    for (const a of group) {
      if (a === reference) continue;
      compared.family++;
      if (sameSet(a.capabilities, reference.capabilities)) continue;
      violations.push(violation("family", `${family}:${nameOf(a)}`, reference, a));
    }
  }
  return violations;
}

export function findSiblingViolations(
  actions: readonly AwsActionInfo[] = listAwsActions(),
): SiblingViolation[] {
  return runSiblingChecks(actions).violations;
}

export interface SiblingCheckRun {
  violations: SiblingViolation[];
  /** Per check, how many sibling pairs it compared. */
  compared: Readonly<Record<SiblingCheck, number>>;
}

export function runSiblingChecks(
  actions: readonly AwsActionInfo[] = listAwsActions(),
): SiblingCheckRun {
  for (const k of Object.keys(compared) as SiblingCheck[]) compared[k] = 0;
  const violations = [...putGetDelete(actions), ...suffixVariants(actions), ...families(actions)];
  return { violations, compared: { ...compared } };
}

export function formatSiblingViolations(
  violations: readonly SiblingViolation[],
  counts?: Readonly<Record<SiblingCheck, number>>,
): string {
  const lines = ["sibling consistency:"];
  for (const [check, title] of Object.entries(SIBLING_CHECKS) as [SiblingCheck, string][]) {
    const mine = violations.filter((v) => v.check === check);
    const unexplained = mine.filter((v) => !v.reason);
    const pairs = counts ? `${counts[check]} pairs compared, ` : "";
    lines.push(
      `  ${check} (${title}): ${pairs}${mine.length} violations (${mine.length - unexplained.length} documented exceptions, ${unexplained.length} unexplained)`,
      ...[...unexplained, ...mine.filter((v) => v.reason)].map(
        (v) =>
          `    ${v.other} [${v.otherCapabilities.join(", ")}] vs ${v.data} — ${v.reason ?? "UNEXPLAINED"}`,
      ),
    );
  }
  return lines.join("\n");
}
