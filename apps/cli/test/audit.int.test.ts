import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import {
  appendAuditEvent,
  createDb,
  type DbHandle,
  listAuditEvents,
  rawQuery,
} from "@sightline/db";
import { afterAll, beforeAll, expect, inject, it } from "vitest";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");
const databaseUrl = inject("databaseUrl");
const partnerId = `P${randomInt(100_000, 1_000_000)}`;
let handle: DbHandle;

beforeAll(async () => {
  handle = createDb(databaseUrl);
  for (const bucketName of ["inbox-a", "inbox-b", "inbox-c"])
    await appendAuditEvent(handle.db, {
      tenant: partnerId,
      keyId: "key_AAAAAAAAAAAAAAAA",
      actorName: "ci",
      action: "PUT /partner/{partnerId}",
      route: "putPartner",
      params: { partnerId },
      status: 200,
      requestId: null,
      changes: { "deliveryDestinations.DeliverToS3.bucketName": { old: null, new: bucketName } },
    });
});
afterAll(() => handle.close());

const verify = () =>
  run(process.execPath, [bin, "audit", "verify", "--tenant", partnerId], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

it("sightline audit verify passes on an untouched chain and fails, naming the event, after a row is edited by hand", async () => {
  const passed = await verify();
  expect(passed.code).toBe(0);
  expect(JSON.parse(passed.stdout)).toEqual({
    tenant: partnerId,
    events: 3,
    problems: [],
    ok: true,
  });

  const [middle] = (await listAuditEvents(handle.db, { tenant: partnerId, limit: 3 })).slice(1);
  await handle.db.execute(
    rawQuery(
      `update audit_events set changes = '{"deliveryDestinations.DeliverToS3.bucketName": {"old": null, "new": "attacker-inbox"}}' where id = $1`,
      [middle?.id],
    ),
  );
  const failed = await verify();
  expect(failed.code).toBe(1);
  const verdict = JSON.parse(failed.stdout) as {
    ok: boolean;
    problems: { id: number; reason: string }[];
  };
  expect(verdict.ok).toBe(false);
  expect(verdict.problems).toEqual([{ id: middle?.id, reason: expect.stringMatching(/edited/) }]);
});

it("refuses a malformed tenant with the rule, exit 2", async () => {
  const result = await run(process.execPath, [bin, "audit", "verify", "--tenant", "acme"], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  }).catch((error: { code: number; stderr: string }) => error);
  expect(result).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/--tenant must be a partner ID/),
  });
});
