import { describe, expect, it } from "vitest";
import { describeError } from "../src/describe-error.ts";

describe("describeError", () => {
  it("keeps the root cause and never a wrapper's query parameters", () => {
    const root = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
    });
    const wrapped = new Error("Failed query: insert into x values ($1)\nparams: ext-id-secret", {
      cause: root,
    });
    const described = describeError(wrapped);
    expect(described).toMatchObject({
      type: "Error",
      code: "23505",
      message: "duplicate key value violates unique constraint",
    });
    expect(JSON.stringify(described)).not.toContain("ext-id-secret");
    expect(described.stack).not.toHaveLength(0);
    expect((described.stack as string[]).every((line) => line.startsWith("at "))).toBe(true);
  });

  it("never logs a query wrapper without a cause, nor lines after a message's first", () => {
    const lone = describeError(new Error("Failed query: select $1\nparams: hash-secret"));
    expect(lone.message).toBe("query failed");
    expect(JSON.stringify(lone)).not.toContain("hash-secret");
    const multi = describeError(new Error("first line\nsecond line with a secret"));
    expect(multi.message).toBe("first line");
    expect(JSON.stringify(multi)).not.toContain("secret");
  });

  it("describes a thrown non-error by its type only", () => {
    expect(describeError("a string with a secret")).toEqual({ type: "string" });
  });
});
