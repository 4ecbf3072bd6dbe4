import { readFileSync } from "node:fs";
import type { AwsAccessLevel } from "../src/aws-access-level.ts";
import { awsServiceCategory, findAwsAction } from "../src/aws-catalogue.ts";
import { findAwsOverride } from "../src/aws-overrides.ts";
import { type Capability, type CapabilityMap, sortCapabilities } from "../src/capability.ts";
import { classifyAwsActionByRules } from "../src/classify-aws-action.ts";
import { K9_REFERENCE } from "./reference-paths.ts";

export const K9_2022 = "k9-cdk.capability_summary.json";
export const K9_2021 = "k9-cdk.capability_summary.full-2021-01-25.json";

export interface K9Disagreement {
  action: string;
  ours: Capability[];
  k9: Capability[];
  /** The override table's reason, if the action has an entry. */
  reason?: string;
}

export interface K9Comparison {
  file: string;
  /** Reference actions that iam-data also has. */
  compared: number;
  /** Of those, actions whose capability set equals k9's exactly. */
  agreeing: number;
  agreement: number;
  /** The same measure with the rules alone (no override table): how well the rules generalise. */
  rulesOnlyAgreement: number;
  disagreements: K9Disagreement[];
  /** Reference actions that no longer exist in iam-data. */
  missing: string[];
}

/** k9's map keyed by lower-cased action, union of capabilities over the services listing it. */
export function readK9Reference(file: string): Map<string, Set<Capability>> {
  const map = JSON.parse(readFileSync(new URL(file, K9_REFERENCE), "utf8")) as CapabilityMap;
  const byAction = new Map<string, Set<Capability>>();
  for (const caps of Object.values(map)) {
    for (const [cap, actions] of Object.entries(caps) as [Capability, string[]][]) {
      for (const action of actions) {
        const set = byAction.get(action.toLowerCase()) ?? new Set<Capability>();
        set.add(cap);
        byAction.set(action.toLowerCase(), set);
      }
    }
  }
  return byAction;
}

const sameSet = (a: readonly Capability[], b: readonly Capability[]) =>
  a.length === b.length && a.every((c) => b.includes(c));

export function compareWithK9(file: string): K9Comparison {
  const reference = readK9Reference(file);
  const disagreements: K9Disagreement[] = [];
  const missing: string[] = [];
  let agreeing = 0;
  let rulesAgreeing = 0;
  for (const [lower, caps] of [...reference].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const info = findAwsAction(lower);
    if (!info) {
      missing.push(lower);
      continue;
    }
    const k9 = sortCapabilities(caps);
    const [, name = ""] = info.action.split(":");
    const rules = classifyAwsActionByRules({
      prefix: info.prefix,
      name,
      accessLevel: info.accessLevel as AwsAccessLevel,
      category: awsServiceCategory(info.prefix),
    });
    if (sameSet(rules.capabilities, k9)) rulesAgreeing++;
    if (sameSet(info.capabilities, k9)) {
      agreeing++;
      continue;
    }
    const reason = findAwsOverride(info.action)?.reason;
    disagreements.push({
      action: info.action,
      ours: [...info.capabilities],
      k9,
      ...(reason ? { reason } : {}),
    });
  }
  const compared = reference.size - missing.length;
  return {
    file,
    compared,
    agreeing,
    agreement: agreeing / compared,
    rulesOnlyAgreement: rulesAgreeing / compared,
    disagreements,
    missing,
  };
}

/** Agreement on one k9 service with the overrides for its prefixes left out. */
export interface K9HeldOutService {
  service: string;
  /** IAM prefixes of the service's actions, whose overrides were left out. */
  prefixes: string[];
  compared: number;
  agreeing: number;
  agreement: number;
  /** Overrides left out that name one of the service's reference actions. */
  heldOutOverrides: number;
}

export interface K9LeaveOneServiceOut {
  file: string;
  services: K9HeldOutService[];
  /** Pooled over the reference actions (each judged with its own services' overrides left out). */
  compared: number;
  agreeing: number;
  agreement: number;
}

/**
 * Cross-validation: each k9 service is judged by the rules plus the overrides written for other
 * services only, so no override tuned on its own reference actions helps it. Overrides are keyed
 * by action, so this is the rules alone on the held-out service; it says how the rules generalise.
 */
export function leaveOneServiceOut(file: string): K9LeaveOneServiceOut {
  const raw = JSON.parse(readFileSync(new URL(file, K9_REFERENCE), "utf8")) as CapabilityMap;
  const reference = readK9Reference(file);
  const prefixOf = (action: string) => action.split(":")[0]?.toLowerCase() ?? "";
  const servicePrefixes = new Map<string, Set<string>>();
  const servicesOf = new Map<string, Set<string>>();
  for (const [service, caps] of Object.entries(raw)) {
    const prefixes = servicePrefixes.get(service) ?? new Set<string>();
    for (const action of Object.values(caps).flat()) {
      prefixes.add(prefixOf(action));
      const lower = action.toLowerCase();
      servicesOf.set(lower, (servicesOf.get(lower) ?? new Set()).add(service));
    }
    servicePrefixes.set(service, prefixes);
  }
  const judge = (lower: string, heldOut: ReadonlySet<string>) => {
    const info = findAwsAction(lower);
    if (!info) return undefined;
    const override = findAwsOverride(info.action);
    const [, name = ""] = info.action.split(":");
    const caps =
      override && !heldOut.has(info.prefix.toLowerCase())
        ? sortCapabilities(override.capabilities)
        : classifyAwsActionByRules({
            prefix: info.prefix,
            name,
            accessLevel: info.accessLevel as AwsAccessLevel,
            category: awsServiceCategory(info.prefix),
          }).capabilities;
    return { agrees: sameSet(caps, sortCapabilities(reference.get(lower) ?? [])), override };
  };
  const services: K9HeldOutService[] = [];
  for (const [service, prefixes] of [...servicePrefixes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let compared = 0;
    let agreeing = 0;
    let heldOutOverrides = 0;
    for (const [lower, of] of servicesOf) {
      if (!of.has(service)) continue;
      const verdict = judge(lower, prefixes);
      if (!verdict) continue;
      compared++;
      if (verdict.agrees) agreeing++;
      if (verdict.override) heldOutOverrides++;
    }
    if (compared === 0) continue;
    services.push({
      service,
      prefixes: [...prefixes].sort(),
      compared,
      agreeing,
      agreement: agreeing / compared,
      heldOutOverrides,
    });
  }
  let compared = 0;
  let agreeing = 0;
  for (const [lower, of] of servicesOf) {
    const heldOut = new Set([...of].flatMap((s) => [...(servicePrefixes.get(s) ?? [])]));
    const verdict = judge(lower, heldOut);
    if (!verdict) continue;
    compared++;
    if (verdict.agrees) agreeing++;
  }
  return { file, services, compared, agreeing, agreement: agreeing / compared };
}

export function formatLeaveOneServiceOut(l: K9LeaveOneServiceOut): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${l.file} leave-one-service-out: ${l.agreeing}/${l.compared} actions agree (${pct(l.agreement)})`,
    ...l.services.map(
      (s) =>
        `  ${s.service} (${s.prefixes.join(", ")}): ${s.agreeing}/${s.compared} (${pct(s.agreement)}), ${s.heldOutOverrides} overrides left out`,
    ),
  ].join("\n");
}

export function formatK9Comparison(c: K9Comparison): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `${c.file}: ${c.agreeing}/${c.compared} actions agree (${pct(c.agreement)}); rules alone ${pct(c.rulesOnlyAgreement)}`,
    ...c.disagreements.map(
      (d) =>
        `  ${d.action}: ours [${d.ours.join(", ")}] k9 [${d.k9.join(", ")}]${d.reason ? ` — ${d.reason}` : " — NO REASON"}`,
    ),
    `  not in iam-data (${c.missing.length}): ${c.missing.join(", ") || "none"}`,
  ];
  return lines.join("\n");
}
