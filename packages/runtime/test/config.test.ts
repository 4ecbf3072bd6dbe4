import { describe, expect, it } from "vitest";
import { BaseConfig, parseConfig } from "../src/index.ts";

describe("parseConfig", () => {
  it("applies the defaults of BaseConfig", () => {
    expect(parseConfig(BaseConfig, {})).toEqual({
      SIGHTLINE_DATA_DIR: ".data",
      LOG_LEVEL: "info",
      SIGHTLINE_DRAIN_SECONDS: 300,
    });
  });

  it("names every wrong variable, never its value", () => {
    const env = { DATABASE_URL: "mysql://secret@host/db", LOG_LEVEL: "loud" };
    const error = (() => {
      try {
        parseConfig(BaseConfig, env);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("parseConfig accepted a wrong environment");
    })();
    expect(error.message).toMatch(/^Invalid configuration:/);
    expect(error.message).toContain("DATABASE_URL");
    expect(error.message).toContain("LOG_LEVEL");
    expect(error.message).not.toContain("secret");
  });
});
