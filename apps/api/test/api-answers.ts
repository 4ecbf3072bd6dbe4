/**
 * Invariant 5 of the fault suite (issue 34): the API keeps answering. A probe calls the API's
 * reads again and again while a fault is injected and after it clears, and keeps every answer;
 * `apiAnswerViolations` says, in words, each answer that breaks the invariant: a 500 (or any 5xx
 * but a 503), a 503 without `Retry-After` or without the `UNAVAILABLE` code, `/healthz` not 200,
 * a call without an answer within the bound (a hang), or a 200 whose body is not the one asked
 * for; and, per phase, `/readyz` not saying that the database is down while it is, or the reads
 * not answering 200 again once it is back.
 */

/** Before the fault, while it is injected, while the database is down (known), after it. */
export type Phase = "before" | "fault" | "down" | "after";

export interface ProbedRead {
  /** The route called (GET). */
  readonly path: string;
  /** The key it is called with; none for the public probes. */
  readonly key?: string;
  /** What a 200's JSON body must hold (a field the route answers for this record). */
  readonly expect?: Record<string, unknown>;
}

export interface Answer {
  path: string;
  /** The phase the call was sent in. */
  phase: Phase;
  /** The phase its answer (or its failure) came in. */
  endedIn: Phase;
  /** The HTTP status; 0 when no answer came within the bound, -1 when the connection failed. */
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown> | undefined;
  ms: number;
}

/** Calls `reads`, `/healthz` and `/readyz` in turn until stopped, each within `hangMs`. */
export function probeApi(base: string, reads: readonly ProbedRead[], hangMs: number) {
  const answers: Answer[] = [];
  let phase: Phase = "before";
  let running = true;
  const all: ProbedRead[] = [{ path: "/healthz" }, { path: "/readyz" }, ...reads];
  const call = async (read: ProbedRead): Promise<Answer> => {
    const started = performance.now();
    const at = phase;
    try {
      const response = await fetch(`${base}${read.path}`, {
        headers: read.key ? { authorization: `Bearer ${read.key}` } : {},
        signal: AbortSignal.timeout(hangMs),
      });
      const text = await response.text();
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      return {
        path: read.path,
        phase: at,
        endedIn: phase,
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body,
        ms: performance.now() - started,
      };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      return {
        path: read.path,
        phase: at,
        endedIn: phase,
        status: timedOut ? 0 : -1,
        retryAfter: null,
        body: undefined,
        ms: performance.now() - started,
      };
    }
  };
  const loop = (async () => {
    while (running) {
      for (const read of all) answers.push(await call(read));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    answers,
    reads: all,
    /** Answers from now on belong to `next`. */
    enter(next: Phase) {
      phase = next;
    },
    /** Waits until each read has been answered at least `rounds` times in the current phase. */
    async rounds(rounds: number, deadlineMs: number) {
      const deadline = Date.now() + deadlineMs;
      const count = () =>
        Math.min(
          ...all.map((r) => answers.filter((a) => a.phase === phase && a.path === r.path).length),
        );
      while (count() < rounds) {
        if (Date.now() > deadline)
          throw new Error(`the probe made fewer than ${rounds} rounds in phase ${phase}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Every answer that breaks invariant 5, in words. */
export function apiAnswerViolations(
  answers: readonly Answer[],
  reads: readonly ProbedRead[],
  hangMs: number,
): string[] {
  const violations: string[] = [];
  const expected = new Map(reads.map((r) => [r.path, r.expect]));
  for (const a of answers) {
    const where = `5: GET ${a.path} (${a.phase})`;
    if (a.status === 0) violations.push(`${where} had no answer within ${hangMs} ms`);
    else if (a.status === -1) violations.push(`${where}: the connection failed`);
    else if (a.path === "/healthz" && a.status !== 200)
      violations.push(`${where} answered ${a.status}`);
    else if (a.status >= 500 && a.status !== 503) violations.push(`${where} answered ${a.status}`);
    else if (a.status === 503 && a.path !== "/readyz" && !a.retryAfter)
      violations.push(`${where} answered 503 without Retry-After`);
    else if (a.status === 503 && a.path !== "/readyz" && a.body?.code !== "UNAVAILABLE")
      violations.push(`${where} answered 503 with code ${String(a.body?.code)}`);
    else if (a.status === 503 && a.path === "/readyz" && !/database/i.test(String(a.body?.message)))
      violations.push(`${where} answered 503 without naming the database`);
    else if (a.status !== 200 && a.status !== 503) violations.push(`${where} answered ${a.status}`);
    else if (a.status === 200)
      for (const [field, value] of Object.entries(expected.get(a.path) ?? {}))
        if (a.body?.[field] !== value)
          violations.push(
            `${where} answered 200 with ${field} ${String(a.body?.[field])}, not ${String(value)}`,
          );
  }
  const of = (phase: Phase, path: string) =>
    answers.filter((a) => a.phase === phase && a.path === path);
  // While the database is down, readiness says so every time (asked and answered meanwhile).
  for (const a of of("down", "/readyz").filter((a) => a.endedIn === "down"))
    if (a.status !== 503)
      violations.push(`5: GET /readyz answered ${a.status} while the database was down`);
  // Once it is back, every read ends the phase answering 200.
  for (const { path } of reads) {
    const last = of("after", path).at(-1);
    if (last?.status !== 200 && path !== "/healthz")
      violations.push(
        `5: GET ${path} answered ${last?.status ?? "nothing"} after the fault cleared`,
      );
  }
  return violations;
}
