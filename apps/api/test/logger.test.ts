import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";

describe("createLogger", () => {
  it("writes JSON lines at or above its level, with the child's bindings", () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "info",
      write: (line) => lines.push(line),
      bindings: { service: "api" },
    });
    logger.debug("hidden");
    logger.child({ requestId: "r1" }).warn("careful", { status: 500 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      level: "warn",
      msg: "careful",
      service: "api",
      requestId: "r1",
      status: 500,
    });
  });
});
