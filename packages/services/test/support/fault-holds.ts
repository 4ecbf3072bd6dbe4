/**
 * Ways to hold a worker at one stage of an analysis, so that a test kills it there and not a
 * moment before or after: a lock the stage's first statement waits on (in the suite's own
 * database; only a wait on that lock counts, `someoneWaits`), and a webhook receiver that takes a
 * request and answers late.
 */
import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { loopbackCertificate } from "@sightline/azure-fake";
import { createDb, type Executor, rawQuery } from "@sightline/db";

/** Waits for `check`, failing after `seconds` with `what`. */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  seconds: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Runs `statement` (a `lock table …`, a `pg_advisory_xact_lock`) in a transaction of its own
 * connection and keeps it open until `release()`.
 */
export async function holdLock(
  databaseUrl: string,
  statement: string,
): Promise<{ release(): Promise<void> }> {
  const database = createDb(databaseUrl, { maxConnections: 1 });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let taken = () => {};
  const held = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const transaction = database.db.transaction(async (tx) => {
    await tx.execute(rawQuery(statement, []));
    taken();
    await released;
  });
  await Promise.race([held, transaction]);
  return {
    async release() {
      release();
      await transaction;
      await database.close();
    },
  };
}

/**
 * Whether some session of this database waits for the lock a hold took: a table's (`table`), or
 * an advisory lock of two keys whose first is `advisory`. Only that lock: a worker waits on others
 * for a moment (its lease row while the keeper renews it), and that is not the hold.
 */
export async function someoneWaits(
  db: Executor,
  on: { table: string } | { advisory: number },
): Promise<boolean> {
  const [table, classId] = "table" in on ? [on.table, null] : [null, on.advisory];
  const [row] = await db.execute(
    rawQuery(
      `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where not l.granted and a.datname = current_database()
         and case when $1::text is null then l.locktype = 'advisory' and l.objsubid = 2
                    and l.classid = $2::oid
                  else l.relation = to_regclass($1::text) end`,
      [table, classId],
    ),
  );
  return Number(row?.n) > 0;
}

/** A request as the receiver took it. */
export interface HeldRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTPS webhook receiver on 127.0.0.1 that answers 200 — or, while `holding`, takes each
 * request and answers only once `answerHeld()` is called (or never, if its caller dies).
 */
export async function startHoldingReceiver() {
  const { cert, key } = await loopbackCertificate();
  const received: HeldRequest[] = [];
  const held: (() => void)[] = [];
  let holding = false;
  const server = createServer({ cert, key }, (request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(parts).toString("utf8") });
      const answer = () => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("ok");
      };
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    cert,
    port,
    url: `https://127.0.0.1:${port}/sightline/alerts`,
    received,
    /** The pipeline's alert settings that let it post to this receiver (retried twice). */
    alertSettings(requestTimeoutMs = 30_000) {
      return {
        allowedHosts: [{ host: "127.0.0.1", port }],
        caCertificates: [cert],
        retry: { limit: 2, delaySeconds: 1 },
        requestTimeoutMs,
      };
    },
    hold(on: boolean) {
      holding = on;
    },
    answerHeld() {
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
