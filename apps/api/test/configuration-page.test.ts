import { readFileSync } from "node:fs";
import { BaseConfig } from "@sightline/runtime";
import { PipelineConfig } from "@sightline/services";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CONFIGURATION_PAGE,
  renderConfigurationPage,
  settingSections,
  variablesOf,
} from "../scripts/configuration-page.ts";
import { ApiConfig } from "../src/config.ts";

const pagePath = new URL(`../../../${CONFIGURATION_PAGE}`, import.meta.url);

/** The first line where two texts differ, for a message a reader can act on. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split("\n");
  const have = actual.split("\n");
  const at = want.findIndex((line, i) => line !== have[i]);
  const line = at === -1 ? want.length : at;
  return `line ${line + 1}:\n  schemas: ${want[line] ?? "(end)"}\n  page:    ${have[line] ?? "(end)"}`;
}

describe("docs/configuration.md", () => {
  it("is what the configuration schemas generate", () => {
    const expected = renderConfigurationPage();
    const actual = readFileSync(pagePath, "utf8");
    if (actual !== expected)
      expect.fail(
        `${CONFIGURATION_PAGE} differs from the configuration schemas: run \`pnpm docs:configuration\` (${firstDifference(expected, actual)})`,
      );
  });

  it("describes every variable the start command reads, each once", () => {
    const sections = settingSections();
    const listed = sections.flatMap((section) => section.settings.map((s) => s.name));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...variablesOf(ApiConfig).keys()].sort());
    const undescribed = sections
      .flatMap((section) => section.settings)
      .filter((setting) => !setting.description?.trim())
      .map((setting) => setting.name);
    expect(undescribed, "variables without .meta({ description })").toEqual([]);
    // The pipeline's variables are read by the worker-only process too: they have their section.
    const pipeline = sections.find((section) => section.title === "The analysis pipeline");
    expect(pipeline?.settings.map((s) => s.name)).toEqual([...variablesOf(PipelineConfig).keys()]);
  });

  it("refuses a variable without a description, naming it", () => {
    const undocumented = PipelineConfig.extend({
      SIGHTLINE_SOMETHING_NEW: z.string().optional(),
    });
    const schemas = {
      base: BaseConfig,
      pipeline: undocumented,
      api: z.intersection(BaseConfig, undocumented),
    };
    expect(() => renderConfigurationPage(schemas)).toThrow(
      /no description in the schema's \.meta\(\) for SIGHTLINE_SOMETHING_NEW/,
    );
  });

  it("shows a literal default from the schema, and a computed one from its defaultText", () => {
    const settings = new Map(
      settingSections()
        .flatMap((section) => section.settings)
        .map((setting) => [setting.name, setting.defaultText]),
    );
    expect(settings.get("PORT")).toBe("`8080`");
    expect(settings.get("SIGHTLINE_REPORT_FORMATS")).toBe("`csv,parquet`");
    expect(settings.get("TRUST_PROXY")).toBe("`false`");
    expect(settings.get("DATABASE_URL")).toBe("unset");
    expect(settings.get("SIGHTLINE_AWS_REGIONS")).toBe("the account's enabled regions");
  });

  it("says what each variable accepts, read from its schema", () => {
    const settings = new Map(
      settingSections()
        .flatMap((section) => section.settings)
        .map((setting) => [setting.name, setting.accepts]),
    );
    for (const [name, accepts] of settings) expect(accepts, name).not.toBe("");
    expect(settings.get("PORT")).toBe("a whole number from 0 to 65535");
    expect(settings.get("SIGHTLINE_POLL_SECONDS")).toBe("a number from 0.5 to 60");
    expect(settings.get("SIGHTLINE_JOB_EXPIRE_SECONDS")).toBe("a whole number ≥ 10");
    expect(settings.get("SIGHTLINE_ROLE")).toBe("`all`, `api` or `worker`");
    expect(settings.get("SIGHTLINE_SMTP_URL")).toBe("a URL (`smtp://` or `smtps://`)");
    expect(settings.get("SIGHTLINE_REPORT_FORMATS")).toBe(
      "a comma-separated list of `csv`, `jsonl`, `parquet` or `xlsx`",
    );
    expect(settings.get("SIGHTLINE_KMS_KEY_ID")).toBe("a KMS key ARN");
  });
});
