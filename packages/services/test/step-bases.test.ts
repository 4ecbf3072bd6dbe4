import type { CollectedAccount } from "@sightline/aws";
import type { AccountModel } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { type StepBase, StepBases } from "../src/events/step-bases.ts";

/** A base of `principals` principals (only their count matters here). */
const base = (executionId: string, principals: number): StepBase => ({
  executionId,
  collected: {} as CollectedAccount,
  model: {
    principals: new Map(Array.from({ length: principals }, (_, i) => [`p${i}`, {}])),
  } as unknown as AccountModel,
});
const account = (accountId: string) => ({ customerId: "C1", accountId });

describe("the bases a worker keeps of its accounts' last event steps", () => {
  it("gives an account's base only for the execution it was kept from", () => {
    const bases = new StepBases(100);
    bases.keep(account("111111111111"), base("event-1", 10));
    expect(bases.take(account("111111111111"), "full-2")).toBeUndefined();
    expect(bases.take(account("222222222222"), "event-1")).toBeUndefined();
    expect(bases.take(account("111111111111"), "event-1")?.executionId).toBe("event-1");
  });

  it("keeps one base per account, the newest", () => {
    const bases = new StepBases(100);
    bases.keep(account("111111111111"), base("event-1", 10));
    bases.keep(account("111111111111"), base("event-2", 20));
    expect(bases.size).toEqual({ accounts: 1, principals: 20 });
    expect(bases.take(account("111111111111"), "event-1")).toBeUndefined();
    bases.drop(account("111111111111"));
    expect(bases.size).toEqual({ accounts: 0, principals: 0 });
  });

  it("drops the least recently used once they hold more principals than allowed", () => {
    const bases = new StepBases(100);
    bases.keep(account("111111111111"), base("event-1", 40));
    bases.keep(account("222222222222"), base("event-2", 40));
    // The first is used again: the second is now the least recently used.
    expect(bases.take(account("111111111111"), "event-1")).toBeDefined();
    bases.keep(account("333333333333"), base("event-3", 40));
    expect(bases.size).toEqual({ accounts: 2, principals: 80 });
    expect(bases.take(account("222222222222"), "event-2")).toBeUndefined();
    expect(bases.take(account("111111111111"), "event-1")).toBeDefined();
    // Larger than all that may be kept: not kept, and nothing else dropped for it.
    bases.keep(account("444444444444"), base("event-4", 101));
    expect(bases.size).toEqual({ accounts: 2, principals: 80 });
  });

  it("keeps none with a limit of 0", () => {
    const bases = new StepBases(0);
    bases.keep(account("111111111111"), base("event-1", 1));
    expect(bases.take(account("111111111111"), "event-1")).toBeUndefined();
  });
});
