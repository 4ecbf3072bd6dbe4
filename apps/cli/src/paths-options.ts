import { parseArgs } from "node:util";
import { CAPABILITIES, type Capability, isCapability } from "@sightline/capabilities";
import {
  DEFAULT_MAX_ACCESS_PATH_NODES,
  MAX_ACCESS_PATH_NODES,
  PATH_SERVICES,
  type PathService,
} from "@sightline/engine";
import { isPartition, parseArn } from "@sightline/engine/arn";
import type { PathsCommand } from "./paths-command.ts";
import {
  type OptionTable,
  SNAPSHOT_FILE_OPTIONS,
  snapshotFilesOf,
} from "./snapshot-file-options.ts";
import { UsageError } from "./usage.ts";

const OPTIONS = {
  ...SNAPSHOT_FILE_OPTIONS,
  resource: { type: "string", multiple: true },
  service: { type: "string", default: "STS" },
  capability: { type: "string", multiple: true, default: ["use-resource"] },
  operator: { type: "string", default: "OR" },
  "max-nodes": { type: "string", default: String(DEFAULT_MAX_ACCESS_PATH_NODES) },
  json: { type: "boolean", default: false },
} satisfies OptionTable;

const isPathService = (value: string): value is PathService =>
  (PATH_SERVICES as readonly string[]).includes(value);

function resourceOf(text: string): string {
  const arn = parseArn(text);
  if (arn && isPartition(arn.partition) && arn.service !== "") return text;
  throw new UsageError(`--resource must be an ARN (arn:<partition>:<service>:...); got '${text}'`);
}

function capabilityOf(text: string): Capability {
  if (isCapability(text)) return text;
  throw new UsageError(`--capability must be one of ${CAPABILITIES.join(", ")}; got '${text}'`);
}

function maxNodesOf(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (value >= 1 && value <= MAX_ACCESS_PATH_NODES) return value;
  throw new UsageError(
    `--max-nodes must be an integer from 1 to ${MAX_ACCESS_PATH_NODES}; got '${text}'`,
  );
}

/** `sightline paths`'s arguments, checked against the engine's limits. */
export function parsePathsArgs(args: readonly string[]): PathsCommand & { json: boolean } {
  const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true });
  const files = snapshotFilesOf(values);
  const resources = values.resource;
  if (!resources) throw new UsageError("--resource is required (repeat it for more resources)");
  const { service, operator } = values;
  if (!isPathService(service))
    throw new UsageError(`--service must be one of ${PATH_SERVICES.join(", ")}; got '${service}'`);
  if (operator !== "OR" && operator !== "AND")
    throw new UsageError(`--operator must be OR or AND; got '${operator}'`);
  const capabilities = values.capability.flatMap((value) => value.split(",")).map(capabilityOf);
  return {
    ...files,
    resources: [...new Set(resources.map(resourceOf))],
    service,
    capabilities: [...new Set(capabilities)],
    operator,
    maxNodes: maxNodesOf(values["max-nodes"]),
    json: values.json,
  };
}
