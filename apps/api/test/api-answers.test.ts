import { describe, expect, it } from "vitest";
import { type Answer, apiAnswerViolations, type Phase } from "./api-answers.ts";

// The invariant-5 checker of the fault suite: each way of breaking it is reported, and a run
// that keeps it reports nothing.
const reads = [{ path: "/executions/E1", key: "k", expect: { executionId: "E1" } }];
const all = [{ path: "/healthz" }, { path: "/readyz" }, ...reads];
const answer = (
  phase: Phase,
  path: string,
  status: number,
  extra: Partial<Answer> = {},
): Answer => ({
  path,
  phase,
  endedIn: phase,
  status,
  retryAfter: null,
  body: undefined,
  ms: 5,
  ...extra,
});
const unavailable = { retryAfter: "5", body: { code: "UNAVAILABLE" } };
const good: Answer[] = [
  answer("before", "/healthz", 200),
  answer("before", "/readyz", 200),
  answer("before", "/executions/E1", 200, { body: { executionId: "E1" } }),
  answer("down", "/healthz", 200),
  answer("down", "/readyz", 503, { body: { message: "Database is not reachable" } }),
  answer("down", "/executions/E1", 503, unavailable),
  answer("after", "/healthz", 200),
  answer("after", "/readyz", 200),
  answer("after", "/executions/E1", 200, { body: { executionId: "E1" } }),
];

describe("apiAnswerViolations", () => {
  it("reports nothing when every answer keeps the invariant", () => {
    expect(apiAnswerViolations(good, all, 5000)).toEqual([]);
  });

  it.each([
    ["a 500", answer("down", "/executions/E1", 500), "answered 500"],
    ["a hang", answer("down", "/executions/E1", 0), "no answer within 5000 ms"],
    ["a cut connection", answer("down", "/executions/E1", -1), "the connection failed"],
    ["a 503 without Retry-After", answer("down", "/executions/E1", 503), "without Retry-After"],
    [
      "a 503 of another code",
      answer("down", "/executions/E1", 503, { retryAfter: "5", body: { code: "INTERNAL" } }),
      "with code INTERNAL",
    ],
    ["/healthz failing", answer("down", "/healthz", 503), "GET /healthz (down) answered 503"],
    [
      "/readyz naming nothing",
      answer("down", "/readyz", 503, { body: { message: "no" } }),
      "without naming the database",
    ],
    ["/readyz ready while down", answer("down", "/readyz", 200), "while the database was down"],
    [
      "a 200 of another record",
      answer("down", "/executions/E1", 200, { body: { executionId: "E2" } }),
      "with executionId E2, not E1",
    ],
    ["a 404", answer("down", "/executions/E1", 404), "answered 404"],
  ])("reports %s", (_, bad, words) => {
    const violations = apiAnswerViolations([...good, bad], all, 5000);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain(words);
  });

  it("takes a /readyz asked while down but answered after as it is", () => {
    const late = answer("down", "/readyz", 200, { endedIn: "after" });
    expect(apiAnswerViolations([...good, late], all, 5000)).toEqual([]);
  });

  it("reports a read that does not answer 200 again after the fault", () => {
    const stuck = [...good, answer("after", "/executions/E1", 503, unavailable)];
    expect(apiAnswerViolations(stuck, all, 5000)).toEqual([
      "5: GET /executions/E1 answered 503 after the fault cleared",
    ]);
  });
});
