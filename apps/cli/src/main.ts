import { once } from "node:events";
import { parseArgs } from "node:util";
import { REPORT_FORMATS as FORMATS, type ReportFormat } from "@sightline/reports/formats";
import {
  type OptionTable,
  SNAPSHOT_FILE_OPTIONS,
  snapshotFilesOf,
} from "./snapshot-file-options.ts";
import { USAGE, UsageError } from "./usage.ts";

// The commands load the engine, the report writers and the database only when they run, so
// that `--help` and usage errors answer at once.

function fail(message: string): never {
  throw new UsageError(message);
}

/** The reports' formats, and `xlsx`: k9's workbook of an AWS account's four reports. */
const CLI_FORMATS = [...FORMATS, "xlsx"] as const;

const isFormat = (value: string): value is (typeof CLI_FORMATS)[number] =>
  (CLI_FORMATS as readonly string[]).includes(value);

function parseFormats(values: readonly string[]): { formats: ReportFormat[]; workbook: boolean } {
  const all = values
    .flatMap((value) => value.split(","))
    .map((format) =>
      isFormat(format)
        ? format
        : fail(`--format must be ${CLI_FORMATS.join(", ")}; got '${format}'`),
    );
  const formats = all.filter((format): format is ReportFormat => format !== "xlsx");
  return { formats, workbook: all.includes("xlsx") };
}

function parseContext(pairs: readonly string[]): Record<string, string | string[]> {
  const context: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) fail(`--context needs key=value, got '${pair}'`);
    const key = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const existing = context[key];
    context[key] =
      existing === undefined
        ? value
        : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return context;
}

/** An Azure subscription: one snapshot file, or the `az` / Graph exports one by one. */
const AZURE_FILE_OPTIONS = {
  "azure-snapshot": { type: "string" },
  "azure-role-definitions": { type: "string" },
  "azure-role-assignments": { type: "string" },
  "azure-deny-assignments": { type: "string" },
  "azure-groups": { type: "string" },
  "azure-principals": { type: "string" },
  "azure-resource-groups": { type: "string" },
  "azure-resources": { type: "string" },
  subscription: { type: "string" },
  "management-groups": { type: "string", multiple: true },
} satisfies OptionTable;

const ANALYZE_OPTIONS = {
  ...SNAPSHOT_FILE_OPTIONS,
  ...AZURE_FILE_OPTIONS,
  format: { type: "string", multiple: true, default: ["csv"] },
  out: { type: "string" },
  show: { type: "string", multiple: true },
} satisfies OptionTable;

type AzureValues = { [K in keyof typeof AZURE_FILE_OPTIONS]?: string | string[] | undefined };

/** The Azure files named on the command line, or undefined when none is (an AWS analysis). */
function azureFilesOf(values: AzureValues & { "authorization-details"?: string[] | undefined }) {
  const given = (Object.keys(AZURE_FILE_OPTIONS) as (keyof typeof AZURE_FILE_OPTIONS)[]).filter(
    (k) => values[k] !== undefined,
  );
  if (given.length === 0) return undefined;
  if (values["authorization-details"])
    fail(
      "--authorization-details (AWS) and --azure-* (Azure) cannot be combined: analyse one cloud at a time",
    );
  const text = (k: keyof typeof AZURE_FILE_OPTIONS) => values[k] as string | undefined;
  const exports = given.filter((k) => k.startsWith("azure-") && k !== "azure-snapshot");
  if (text("azure-snapshot") && exports.length > 0)
    fail(`--azure-snapshot holds the whole subscription: leave out --${exports[0]}`);
  if (!text("azure-snapshot")) {
    for (const k of ["azure-role-definitions", "azure-role-assignments", "subscription"] as const)
      if (!text(k))
        fail(`--${k} is required for an Azure subscription (or give one --azure-snapshot file)`);
  }
  const managementGroups = (values["management-groups"] as string[] | undefined)
    ?.flatMap((v) => v.split(","))
    .filter((v) => v !== "");
  const optional = (key: string, k: keyof typeof AZURE_FILE_OPTIONS) =>
    text(k) ? { [key]: text(k) } : {};
  return {
    ...optional("snapshot", "azure-snapshot"),
    ...optional("subscriptionId", "subscription"),
    ...optional("roleDefinitions", "azure-role-definitions"),
    ...optional("roleAssignments", "azure-role-assignments"),
    ...optional("denyAssignments", "azure-deny-assignments"),
    ...optional("groups", "azure-groups"),
    ...optional("principals", "azure-principals"),
    ...optional("resourceGroups", "azure-resource-groups"),
    ...optional("resources", "azure-resources"),
    ...(managementGroups ? { managementGroups } : {}),
  };
}

const AUTHORIZE_OPTIONS = {
  ...SNAPSHOT_FILE_OPTIONS,
  principal: { type: "string" },
  action: { type: "string" },
  resource: { type: "string" },
  context: { type: "string", multiple: true },
  "session-name": { type: "string" },
  json: { type: "boolean", default: false },
} satisfies OptionTable;

async function analyze(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: ANALYZE_OPTIONS, strict: true });
  const azure = azureFilesOf(values);
  const { formats, workbook } = parseFormats(values.format);
  const out = values.out ?? fail("--out is required");
  if (azure) {
    if (workbook) fail("--format xlsx: k9's workbook is of an AWS account; Azure has none");
    const { runAnalyzeAzure } = await import("./analyze-azure-command.ts");
    const counts = await runAnalyzeAzure({
      ...azure,
      formats,
      out,
      progress: (m) => process.stderr.write(`${m}\n`),
    });
    process.stdout.write(`${JSON.stringify({ out, ...counts })}\n`);
    return 0;
  }
  const files = snapshotFilesOf(values);
  const { runAnalyze } = await import("./analyze-command.ts");
  const counts = await runAnalyze({
    ...files,
    formats,
    ...(workbook ? { workbook } : {}),
    out,
    ...(values.show ? { show: values.show } : {}),
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  process.stdout.write(`${JSON.stringify({ out, ...counts })}\n`);
  return 0;
}

async function authorize(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: AUTHORIZE_OPTIONS, strict: true });
  const files = snapshotFilesOf(values);
  const { runAuthorize } = await import("./authorize-command.ts");
  const { formatAuthorization } = await import("@sightline/engine");
  const result = await runAuthorize({
    ...files,
    principal: values.principal ?? fail("--principal is required"),
    action: values.action ?? fail("--action is required"),
    resource: values.resource ?? fail("--resource is required"),
    context: parseContext(values.context ?? []),
    ...(values["session-name"] ? { sessionName: values["session-name"] } : {}),
  });
  process.stdout.write(
    `${values.json ? JSON.stringify(result, null, 2) : formatAuthorization(result)}\n`,
  );
  return result.decision === "allowed" ? 0 : 1;
}

/** Waits when stdout's buffer is full, so that a long listing streams rather than piles up. */
async function writeLine(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, "drain");
}

async function paths(args: string[]): Promise<number> {
  const { parsePathsArgs } = await import("./paths-options.ts");
  const { json, ...command } = parsePathsArgs(args);
  const { findPaths, writePathLines } = await import("./paths-command.ts");
  if (json) await writeLine(JSON.stringify(await findPaths(command), null, 2));
  else await writePathLines(command, writeLine);
  return 0;
}

async function snapshotImport(args: string[]): Promise<number> {
  const { parseSnapshotImportArgs } = await import("./snapshot-import-options.ts");
  const command = parseSnapshotImportArgs(args, process.env);
  const { runSnapshotImport } = await import("./snapshot-import-command.ts");
  const { createLogger } = await import("@sightline/logging");
  // The database's progress ("embedded Postgres started") as plain lines on stderr.
  const logger = createLogger({
    write: (line) => process.stderr.write(`${(JSON.parse(line) as { msg: string }).msg}\n`),
  });
  await writeLine(JSON.stringify(await runSnapshotImport(command, logger)));
  return 0;
}

async function audit(subcommand: string | undefined, args: string[]): Promise<number> {
  const { parseAuditArgs, runAudit } = await import("./audit-command.ts");
  return runAudit(parseAuditArgs(subcommand, args, process.env), writeLine);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (
    command === undefined ||
    ["help", "--help", "-h"].includes(command) ||
    rest.includes("--help")
  ) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === "analyze") return analyze(rest);
  if (command === "authorize") return authorize(rest);
  if (command === "paths") return paths(rest);
  const [subcommand, ...args] = rest;
  if (command === "snapshot" && subcommand === "import") return snapshotImport(args);
  if (command === "audit") return audit(subcommand, args);
  if (command === "snapshot") return fail(`snapshot needs a subcommand: snapshot import`);
  return fail(`unknown command '${command}'`);
}

const isParseArgsError = (error: unknown) =>
  error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS");

// A reader that stops early (`| head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || isParseArgsError(error)) {
      process.stderr.write(`sightline: ${(error as Error).message}\n\n${USAGE}\n`);
    } else {
      process.stderr.write(
        `sightline: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
    process.exit(2);
  },
);
