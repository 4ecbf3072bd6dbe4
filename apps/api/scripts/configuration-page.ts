/**
 * `docs/configuration.md`, written from the configuration schemas: every variable's meaning and
 * computed default come from its `.meta({ description, defaultText })`, its literal default and
 * what it accepts (type, bounds, values; `.meta({ accepts })` where they say too little) from the
 * schema itself, the rules between variables from the schemas' refinements. The AWS SDK's
 * and Azure's variables, which no schema parses, are the hand-written part below.
 * `pnpm docs:configuration` writes the page; `test/configuration-page.test.ts` fails when the
 * page and the schemas differ.
 */
import { BaseConfig } from "@sightline/runtime";
import { PipelineConfig } from "@sightline/services";
import { type ZodType, z } from "zod";
import { ApiConfig } from "../src/config.ts";

/** Where the page lives, from the repository root. */
export const CONFIGURATION_PAGE = "docs/configuration.md";

export interface Setting {
  name: string;
  /** The meaning; undefined when the schema lacks one (the test and the page refuse that). */
  description: string | undefined;
  /** The default as the page shows it: `defaultText`, else the schema's literal, else "unset". */
  defaultText: string;
  /** What the schema accepts, read from it: a type, a range, the values allowed. */
  accepts: string;
}

export interface SettingSection {
  title: string;
  /** Who reads them, and where they are declared. */
  intro: string;
  settings: Setting[];
}

// zod's definitions, read as data: only the fields used here.
interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  left?: ZodType;
  right?: ZodType;
  in?: ZodType;
  out?: ZodType;
  innerType?: ZodType;
  element?: ZodType;
  format?: string;
  protocol?: RegExp;
  defaultValue?: unknown;
  checks?: { _zod: { def: { path?: PropertyKey[]; error?: () => unknown } } }[];
}
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The objects an environment schema is made of (intersections flattened), in order. */
function objectsOf(schema: ZodType): ZodType[] {
  const def = defOf(schema);
  if (def.type === "object") return [schema];
  if (def.type === "intersection" && def.left && def.right)
    return [...objectsOf(def.left), ...objectsOf(def.right)];
  throw new Error(
    `an environment schema of objects and intersections was expected, not ${def.type}`,
  );
}

/** Every variable an environment schema reads, with its own schema, in declaration order. */
export function variablesOf(schema: ZodType): Map<string, ZodType> {
  const variables = new Map<string, ZodType>();
  for (const object of objectsOf(schema))
    for (const [name, field] of Object.entries(defOf(object).shape ?? {}))
      variables.set(name, field);
  return variables;
}

function literalDefault(schema: ZodType): unknown {
  const def = defOf(schema);
  if (def.type === "default") return def.defaultValue;
  if (def.type === "pipe" && def.in) return literalDefault(def.in);
  return undefined;
}

function showDefault(value: unknown): string {
  if (value === undefined) return "unset";
  if (Array.isArray(value)) return value.length === 0 ? "none" : `\`${value.join(",")}\``;
  return `\`${String(value)}\``;
}

const metaOf = (schema: ZodType) =>
  z.globalRegistry.get(schema) as
    | { description?: unknown; defaultText?: unknown; accepts?: unknown }
    | undefined;

const PROTOCOLS = ["http", "https", "postgres", "postgresql", "smtp", "smtps"];
const oneOf = (values: readonly string[]): string =>
  values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

/** What a variable's schema accepts, in words: read from zod's public getters and definitions. */
export function acceptsOf(schema: ZodType): string {
  const own = metaOf(schema)?.accepts;
  if (typeof own === "string") return own;
  const def = defOf(schema);
  if (def.type === "default" || def.type === "optional") return acceptsOf(def.innerType as ZodType);
  if (def.type === "enum") return oneOf((schema as z.ZodEnum).options.map((v) => `\`${v}\``));
  if (def.type === "number") {
    const n = schema as z.ZodNumber;
    const what = n.isInt ? "a whole number" : "a number";
    const [min, max] = [n.minValue, n.maxValue];
    const bounded = (v: number | null) =>
      v !== null && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER;
    if (bounded(min) && bounded(max)) return `${what} from ${min} to ${max}`;
    if (bounded(min)) return `${what} ≥ ${min}`;
    return what;
  }
  if (def.type === "string" && def.format === "url") {
    const allowed = PROTOCOLS.filter((p) => def.protocol?.test(p) ?? true);
    return `a URL (${oneOf(allowed.map((p) => `\`${p}://\``))})`;
  }
  if (def.type === "string" && def.format === "email") return "an email address";
  if (def.type === "string") return "text";
  if (def.type === "pipe" && def.in && def.out) {
    const out = defOf(def.out);
    if (out.type === "boolean") return "`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)";
    if (out.type === "array" && out.element) {
      const element = defOf(out.element);
      return element.type === "enum"
        ? `${acceptsOf(def.in)} of ${acceptsOf(out.element)}`
        : acceptsOf(def.in);
    }
    return acceptsOf(def.in);
  }
  throw new Error(`no words for what a ${def.type} accepts: give it .meta({ accepts })`);
}

function settingOf(name: string, schema: ZodType): Setting {
  const meta = metaOf(schema);
  const description = typeof meta?.description === "string" ? meta.description : undefined;
  const defaultText =
    typeof meta?.defaultText === "string" ? meta.defaultText : showDefault(literalDefault(schema));
  return { name, description, defaultText, accepts: acceptsOf(schema) };
}

/** The schemas the page is written from (the tests give others). */
export interface ConfigSchemas {
  /** Every process's. */
  base: ZodType;
  /** The start command's: `base`, the API's own and `pipeline`, intersected. */
  api: ZodType;
  /** The analysis pipeline's. */
  pipeline: ZodType;
}

const SCHEMAS: ConfigSchemas = { base: BaseConfig, api: ApiConfig, pipeline: PipelineConfig };

/** The page's sections, by who reads the variables: every process, the API, the pipeline. */
export function settingSections(schemas: ConfigSchemas = SCHEMAS): SettingSection[] {
  const base = variablesOf(schemas.base);
  const pipeline = variablesOf(schemas.pipeline);
  const api = [...variablesOf(schemas.api)].filter(
    ([name]) => !base.has(name) && !pipeline.has(name),
  );
  const settings = (entries: Iterable<[string, ZodType]>) =>
    [...entries].map(([name, schema]) => settingOf(name, schema));
  return [
    {
      title: "Every process",
      intro:
        "Read by the start command (`pnpm start`, `apps/api`) in every `SIGHTLINE_ROLE` and by the worker-only process (`apps/worker`). Declared in `packages/runtime/src/config.ts`.",
      settings: settings(base),
    },
    {
      title: "The API",
      intro:
        "Read by the start command (`apps/api`); they matter where it serves the API (`SIGHTLINE_ROLE` `all` or `api`). Declared in `apps/api/src/config.ts`.",
      settings: settings(api),
    },
    {
      title: "The analysis pipeline",
      intro:
        "Read by every worker (the start command's worker child under `SIGHTLINE_ROLE=all`, `SIGHTLINE_ROLE=worker`, `apps/worker`) and checked by the API too, which uses some of them (the master key, Sightline's Azure application, the alert relay). Give every process the same values. Declared in `packages/services/src/runtime/worker-config.ts`.",
      settings: settings(pipeline),
    },
  ];
}

/** The variables named with their refinements' messages: the rules between variables. */
export function crossRules(schemas: ConfigSchemas = SCHEMAS): string[] {
  const rules: string[] = [];
  for (const schema of [schemas.base, schemas.pipeline, schemas.api])
    for (const check of defOf(schema).checks ?? []) {
      const { path, error } = check._zod.def;
      const message = error?.();
      if (typeof message !== "string") throw new Error("a refinement without a message");
      rules.push(path?.length ? `\`${path.map(String).join(".")}\`: ${message}` : message);
    }
  return rules;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The whole page; throws naming every variable without a description. */
export function renderConfigurationPage(schemas: ConfigSchemas = SCHEMAS): string {
  const sections = settingSections(schemas);
  const missing = sections.flatMap((s) => s.settings.filter((v) => !v.description));
  if (missing.length > 0)
    throw new Error(
      `no description in the schema's .meta() for ${missing.map((v) => v.name).join(", ")}`,
    );
  const lines = [HEADER];
  for (const section of sections) {
    lines.push(`## ${section.title}`, "", section.intro, "");
    lines.push("| variable | default | accepts | meaning |", "|---|---|---|---|");
    for (const v of section.settings)
      lines.push(
        `| \`${v.name}\` | ${cell(v.defaultText)} | ${cell(v.accepts)} | ${cell(v.description ?? "")} |`,
      );
    lines.push("");
  }
  lines.push("## Rules between variables", "", RULES_INTRO, "");
  for (const rule of crossRules(schemas)) lines.push(`- ${rule}`);
  lines.push("", HAND_WRITTEN.trim(), "");
  return lines.join("\n");
}

const RULES_INTRO =
  "Besides each variable's own rule, these are checked together; a start that breaks one is refused with an error naming the variable before the colon:";

const HEADER = `# Configuration

<!-- Generated from the configuration schemas by \`pnpm docs:configuration\`
(apps/api/scripts/configuration-page.ts): edit a variable's .meta() in its schema, or the
hand-written part in that script, and run it again. A test fails when this page differs. -->

Sightline reads its settings from environment variables, once at start-up. A wrong value stops
the start with a message naming the variable and its rule, never its value (a value may be a
secret). Every variable is optional: with none set, \`pnpm start\` serves the API on
\`127.0.0.1:8080\` with an embedded Postgres and its data in \`.data\`. How to run several
processes, TLS, sizing and what to do when something fails are in [operating.md](operating.md).
`;

const HAND_WRITTEN = `
## The command line

\`sightline\` (\`apps/cli\`) reads \`DATABASE_URL\` where it opens the service's database
(\`snapshot import\`; \`audit\`, which requires it), \`SIGHTLINE_DATA_DIR\` for \`snapshot import\`
without \`DATABASE_URL\` (the embedded Postgres), and \`SIGHTLINE_AUDIT_RETENTION_DAYS\` as the
default of \`audit prune --days\`, with the meanings above. Its other commands take their input as
arguments.

## AWS: the SDK's own variables

No schema parses these: the AWS SDK for JavaScript (v3) reads them.

- **Sightline's own credentials** (assuming customers' auditor roles, the inbox bucket, the KMS
  master key, the events queue, Security Hub) come from the SDK's default chain: the environment
  (\`AWS_ACCESS_KEY_ID\`, \`AWS_SECRET_ACCESS_KEY\`, \`AWS_SESSION_TOKEN\`), a profile
  (\`AWS_PROFILE\`, \`AWS_CONFIG_FILE\`, \`AWS_SHARED_CREDENTIALS_FILE\`), web identity
  (\`AWS_ROLE_ARN\`, \`AWS_WEB_IDENTITY_TOKEN_FILE\`), then the container's or instance's role.
  What that identity may do is in [\`deploy/\`](../deploy/README.md).
- **Endpoints**: \`AWS_ENDPOINT_URL_<SERVICE>\` replaces a service's endpoint, for air-gapped
  installs and the \`aws-iso*\` partitions (reachable only inside those networks, with their own CA
  bundle, in Node's \`NODE_EXTRA_CA_CERTS\`): \`STS\`, \`IAM\`,
  \`S3\`, \`KMS\`, \`ORGANIZATIONS\`, \`EC2\`, \`SQS\` and \`SECURITYHUB\` are the services called
  (\`AWS_ENDPOINT_URL\` for all of them at once).
- **Regions**: Sightline names the region of every call itself (STS in the partition's home
  region, KMS and S3 in the key ARN's region, SQS in the queue URL's, the collected account's
  enabled regions or \`SIGHTLINE_AWS_REGIONS\`): \`AWS_REGION\` does not choose where its calls go.
  For that reason \`SIGHTLINE_KMS_KEY_ID\` must be a key ARN, not a key ID or alias.
- **Retries and timeouts** are Sightline's (adaptive retries, 8 attempts, a 60 s silent socket
  fails an attempt): \`AWS_MAX_ATTEMPTS\` and \`AWS_RETRY_MODE\` do not change them.

## Azure

Sightline reads none of the Azure SDK's \`AZURE_*\` variables: its application's client ID, its
secret or certificate and the endpoints come from the \`SIGHTLINE_AZURE_*\` variables above, each
customer's tenant from its account's \`auditorAuthConfig.tenantId\`, so \`AZURE_CLIENT_ID\`,
\`AZURE_TENANT_ID\` or \`AZURE_AUTHORITY_HOST\` set for other tools change nothing. The clouds'
endpoints are \`packages/azure/src/azure-clouds.ts\`'s; what a customer grants the application is
in [\`deploy/azure/\`](../deploy/azure/README.md).

## Development, tests and benchmarks

Not read by the service: \`DATABASE_URL\` is also the Postgres server on which the tests create
(and drop) their databases, an embedded Postgres when unset; \`pnpm demo\` reads \`PORT\` (the
API's, default \`8080\`) and \`SIGHTLINE_DEMO_CONTROL_PORT\` (its control server, default
\`8089\`); the benchmarks read \`BENCH_*\` and \`SIGHTLINE_BENCH_*\` variables, described with the
benchmarks.
`;
