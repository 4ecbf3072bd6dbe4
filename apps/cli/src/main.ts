import { parseArgs } from "node:util";
import { formatAuthorization } from "@sightline/engine";
import { runAnalyze } from "./analyze-command.ts";
import { runAuthorize } from "./authorize-command.ts";

const USAGE = `usage:
  sightline analyze --authorization-details gaad.json [--authorization-details other.json ...]
                    [--resource-policies dir] [--organization org.json] [--format json|csv] --out dir
  sightline authorize --authorization-details gaad.json [--resource-policies dir] [--organization org.json]
                    --principal ARN --action service:Action --resource ARN
                    [--context key=value ...] [--session-name name] [--json]

  --resource-policies  a directory of *.json files, each { "<resource ARN>": <policy document>, ... };
                       a file named <account id>.json belongs to that account (S3 ARNs carry none)
  --organization       { "isManagementAccount"?, "serviceControlPolicies"?: [{ "target", "policies" }], ... }
  --context            request context, e.g. aws:SourceIp=10.0.0.1 (repeat a key for several values)`;

function fail(message: string): never {
  process.stderr.write(`sightline: ${message}\n\n${USAGE}\n`);
  process.exit(2);
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

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      "authorization-details": { type: "string", multiple: true },
      "resource-policies": { type: "string" },
      organization: { type: "string" },
      format: { type: "string", default: "json" },
      out: { type: "string" },
      principal: { type: "string" },
      action: { type: "string" },
      resource: { type: "string" },
      context: { type: "string", multiple: true },
      "session-name": { type: "string" },
      json: { type: "boolean", default: false },
    },
    strict: true,
  });
  const files = {
    authorizationDetails:
      values["authorization-details"] ?? fail("--authorization-details is required"),
    ...(values["resource-policies"] ? { resourcePolicies: values["resource-policies"] } : {}),
    ...(values.organization ? { organization: values.organization } : {}),
  };
  if (command === "analyze") {
    const format = values.format;
    if (format !== "json" && format !== "csv")
      fail(`--format must be json or csv, got '${format}'`);
    const out = values.out ?? fail("--out is required");
    const counts = await runAnalyze({
      ...files,
      format,
      out,
      progress: (m) => process.stderr.write(`${m}\n`),
    });
    process.stdout.write(`${JSON.stringify({ out, ...counts })}\n`);
    return 0;
  }
  if (command === "authorize") {
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
  return fail(command ? `unknown command '${command}'` : "a command is required");
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof TypeError &&
      "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS")
    )
      fail(error.message);
    process.stderr.write(`sightline: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
