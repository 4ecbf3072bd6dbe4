import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, type ObservedFinding, recordFindings } from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());

const finding = (id: string, severity = "low"): ObservedFinding => ({
  findingId: id,
  kind: "iam-admin",
  subject: `arn:aws:iam::123456789012:role/${id}`,
  severity,
  detail: { title: `Finding ${id}`, quote: 'a "b" \\ c', emoji: "\u{1F600}", n: 1 },
});

describe("recordFindings", () => {
  it("keeps first-seen, resolves what is gone, starts a reopened finding over, in observed order", async () => {
    const account = { customerId: `C${randomInt(100_000, 1_000_000)}`, accountId: "123456789012" };
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    const run = (n: number, observed: ObservedFinding[]) =>
      recordFindings(
        handle.db,
        { ...account, executionId: `E${n}`, analysisTime: at(n) },
        observed,
      );

    const first = await run(1, [finding("a"), finding("b")]);
    expect(first.current.map((f) => [f.findingId, f.status, f.firstSeen, f.lastSeen])).toEqual([
      ["a", "active", at(1), at(1)],
      ["b", "active", at(1), at(1)],
    ]);
    expect(first.resolved).toEqual([]);

    const second = await run(2, [finding("b", "high")]);
    expect(second.current).toMatchObject([
      {
        findingId: "b",
        severity: "high",
        firstSeen: at(1),
        lastSeen: at(2),
        lastExecutionId: "E2",
      },
    ]);
    expect(second.resolved).toMatchObject([
      { findingId: "a", status: "resolved", resolvedAt: at(2) },
    ]);

    const third = await run(3, [finding("b"), finding("a")]);
    expect(third.current).toMatchObject([
      { findingId: "b", firstSeen: at(1), lastSeen: at(3), resolvedAt: null },
      // Resolved, then found again: it starts over.
      { findingId: "a", status: "active", firstSeen: at(3), lastSeen: at(3), resolvedAt: null },
    ]);
    expect(third.current[1]?.detail).toEqual(finding("a").detail);
  });

  it("records thousands in the order observed, across batches", async () => {
    const account = { customerId: `C${randomInt(100_000, 1_000_000)}`, accountId: "123456789012" };
    const ids = Array.from({ length: 4_321 }, (_, i) => `f${(i * 7_919) % 4_321}`);
    const { current } = await recordFindings(
      handle.db,
      { ...account, executionId: "E1", analysisTime: new Date() },
      ids.map((id) => finding(id)),
    );
    expect(current.map((f) => f.findingId)).toEqual(ids);
  });
});
