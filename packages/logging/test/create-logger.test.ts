import { describe, expect, it } from "vitest";
import { createLogger } from "../src/create-logger.ts";

function capture(level: "debug" | "info" = "info") {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    write: (line) => lines.push(line),
    bindings: { service: "api" },
  });
  return {
    logger,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("createLogger", () => {
  it("writes JSON lines at or above its level, with the child's bindings", () => {
    const { logger, records } = capture();
    logger.debug("hidden");
    logger.child({ requestId: "r1" }).warn({ status: 500 }, "careful");
    expect(records()).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "careful",
        service: "api",
        requestId: "r1",
        status: 500,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
  });

  it("redacts secret fields at the top level and one level down", () => {
    const { logger, records } = capture();
    logger.info(
      { externalId: "ext-secret", account: { sessionToken: "tok-secret", accountId: "1" } },
      "collected",
    );
    const text = JSON.stringify(records());
    expect(text).not.toContain("ext-secret");
    expect(text).not.toContain("tok-secret");
    expect(records()[0]).toMatchObject({ account: { accountId: "1", sessionToken: "[redacted]" } });
  });

  it("logs an error under err through describeError", () => {
    const { logger, records } = capture();
    const wrapped = new Error("Failed query: select 1\nparams: secret-param", {
      cause: Object.assign(new Error("canceling statement due to user request"), { code: "57014" }),
    });
    logger.error({ err: wrapped }, "unhandled error");
    expect(records()[0]?.err).toMatchObject({
      code: "57014",
      message: "canceling statement due to user request",
    });
    expect(JSON.stringify(records())).not.toContain("secret-param");
  });
});
