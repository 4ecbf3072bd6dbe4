import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, pruneAccountEvents, recordAccountEvent } from "../src/index.ts";
import { accountEvents } from "../src/schema-events.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());

describe("pruneAccountEvents", () => {
  it("forgets events applied or unknown before the cut, and keeps pending and newer ones", async () => {
    const key = { customerId: `C${randomInt(100_000, 1_000_000)}`, accountId: "123456789012" };
    const record = (eventId: string, known: boolean) =>
      recordAccountEvent(handle.db, {
        ...key,
        provider: "aws",
        eventId,
        eventName: "PutUserPolicy",
        eventTime: new Date(),
        ...(known ? { targets: [{ kind: "user", name: "bob" }] } : {}),
      });
    for (const [id, known] of [
      ["old-applied", true],
      ["old-pending", true],
      ["old-unknown", false],
      ["new-applied", true],
    ] as const)
      await record(id, known);
    const set = (eventId: string, fields: Record<string, unknown>) =>
      handle.db
        .update(accountEvents)
        .set(fields)
        .where(
          sql`${accountEvents.customerId} = ${key.customerId} and ${accountEvents.eventId} = ${eventId}`,
        );
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    await set("old-applied", { status: "applied", receivedAt: longAgo });
    await set("old-pending", { receivedAt: longAgo });
    await set("old-unknown", { receivedAt: longAgo });
    await set("new-applied", { status: "applied" });

    const pruned = await pruneAccountEvents(handle.db, new Date(Date.now() - 30 * 86_400_000));
    expect(pruned).toBeGreaterThanOrEqual(2);
    const left = await handle.db
      .select({ eventId: accountEvents.eventId })
      .from(accountEvents)
      .where(eq(accountEvents.customerId, key.customerId));
    expect(left.map((e) => e.eventId).sort()).toEqual(["new-applied", "old-pending"]);
  });
});
