import { splitActionName } from "../src/action-words.ts";
import { type AwsActionInfo, listAwsActions } from "../src/aws-catalogue.ts";
import type { Capability } from "../src/capability.ts";
import { SIBLING_EXCEPTIONS } from "./sibling-exceptions.ts";

// Sibling consistency: the Put of a noun and its Get or Delete in one service act on the same
// thing, so if one of a pair treats it as data the other must too: `PutItem` write-data with
// `GetItem` read-config, or `DeleteMetricStream` delete-data with `PutMetricStream`
// administer-resource, is a contradiction one of the two carries. Get and Delete are not paired:
// deleting a table destroys its items, while getting it returns its description.

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

export interface SiblingViolation {
  /** `s3:Object Tagging`. */
  noun: string;
  /** The sibling that treats the noun as data, e.g. `s3:PutObjectTagging` [write-data]. */
  data: string;
  /** The sibling that does not, e.g. `s3:GetObjectTagging` [read-config]. */
  other: string;
  otherCapabilities: readonly Capability[];
  reason?: string;
}

export function findSiblingViolations(
  actions: readonly AwsActionInfo[] = listAwsActions(),
): SiblingViolation[] {
  // prefix + noun -> verb -> actions
  const groups = new Map<string, Map<string, AwsActionInfo[]>>();
  for (const a of actions) {
    const [, name = ""] = a.action.split(":");
    const { verb, noun } = splitActionName(name);
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
          if (isData(other, otherVerb)) continue;
          const reason = SIBLING_EXCEPTIONS[other.action];
          violations.push({
            noun,
            data: `${dataSibling.action} [${dataSibling.capabilities.join(", ")}]`,
            other: other.action,
            otherCapabilities: other.capabilities,
            ...(reason ? { reason } : {}),
          });
        }
      }
    }
  }
  return violations;
}

export function formatSiblingViolations(violations: readonly SiblingViolation[]): string {
  const unexplained = violations.filter((v) => !v.reason);
  return [
    `sibling consistency (Put and its Get or Delete of one noun agree on data): ${violations.length} violations (${violations.length - unexplained.length} documented exceptions, ${unexplained.length} unexplained)`,
    ...[...unexplained, ...violations.filter((v) => v.reason)].map(
      (v) =>
        `  ${v.other} [${v.otherCapabilities.join(", ")}] vs ${v.data} — ${v.reason ?? "UNEXPLAINED"}`,
    ),
  ].join("\n");
}
