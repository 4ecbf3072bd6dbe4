import type { AwsCatalogueFile } from "./aws-catalogue-file.ts";
import {
  CAPABILITIES,
  type Capability,
  type CapabilityMap,
  compareActionNames,
} from "./capability.ts";
import raw from "./generated/aws-actions.json" with { type: "json" };

export interface AwsActionInfo {
  /** `s3:GetObject`, canonical case from iam-data. */
  action: string;
  /** `s3`. */
  prefix: string;
  /** Readable service name, the key of the capability map (`S3`). */
  service: string;
  /** One of the five AWS access levels (`List`, `Read`, `Write`, `Permissions management`, `Tagging`). */
  accessLevel: string;
  capabilities: readonly Capability[];
  /** Resource type names the action accepts (`["object"]`), possibly empty. */
  resourceTypes: readonly string[];
}

export interface AwsResourceType {
  name: string;
  /** e.g. `arn:${Partition}:s3:::${BucketName}/${ObjectName}`. */
  arnPattern: string;
}

const catalogue = raw as unknown as AwsCatalogueFile;

/** Pinned iam-data version and data date the catalogue was generated from. */
export const AWS_DATA_SOURCE: Readonly<AwsCatalogueFile["source"]> = catalogue.source;

let actions: readonly AwsActionInfo[] | undefined;
let byLowerName: Map<string, AwsActionInfo> | undefined;
let awsMap: CapabilityMap | undefined;

/** Every action of every service, ordered by prefix then action name. */
export function listAwsActions(): readonly AwsActionInfo[] {
  if (actions) return actions;
  const list: AwsActionInfo[] = [];
  for (const [prefix, service] of Object.entries(catalogue.services)) {
    for (const [name, [accessLevel, capabilities, resourceTypes]] of Object.entries(
      service.actions,
    )) {
      list.push(
        Object.freeze({
          action: `${prefix}:${name}`,
          prefix,
          service: service.name,
          accessLevel,
          capabilities: Object.freeze(capabilities),
          resourceTypes: Object.freeze(resourceTypes),
        }),
      );
    }
  }
  actions = Object.freeze(list);
  return actions;
}

/** Case-insensitive lookup: `findAwsAction("s3:getobject")`. */
export function findAwsAction(action: string): AwsActionInfo | undefined {
  byLowerName ??= new Map(listAwsActions().map((a) => [a.action.toLowerCase(), a]));
  return byLowerName.get(action.toLowerCase());
}

/** iam-data's category of a service (`storage`, `databases`, …); the rules use it. */
export function awsServiceCategory(prefix: string): string | undefined {
  return catalogue.services[prefix.toLowerCase()]?.category;
}

/** `s3` -> `S3`; undefined for an unknown prefix. Case-insensitive. */
export function serviceNameForPrefix(prefix: string): string | undefined {
  return catalogue.services[prefix.toLowerCase()]?.name;
}

/** The resource types iam-data defines for a service prefix, with their ARN patterns. */
export function listAwsResourceTypes(prefix: string): readonly AwsResourceType[] {
  const service = catalogue.services[prefix.toLowerCase()];
  if (!service) return [];
  return Object.entries(service.resourceTypes).map(([name, arnPattern]) => ({ name, arnPattern }));
}

/**
 * Service name -> capability -> sorted actions, for every action in the catalogue. Services are
 * in name order, capabilities in CAPABILITIES order. Shared and frozen: do not mutate.
 */
export function getAwsCapabilityMap(): CapabilityMap {
  if (awsMap) return awsMap;
  const byService = new Map<string, Map<Capability, string[]>>();
  for (const info of listAwsActions()) {
    const service = byService.get(info.service) ?? new Map<Capability, string[]>();
    for (const cap of info.capabilities)
      service.set(cap, [...(service.get(cap) ?? []), info.action]);
    byService.set(info.service, service);
  }
  const map: CapabilityMap = {};
  for (const name of [...byService.keys()].sort(compareActionNames)) {
    const service = byService.get(name);
    const entry: CapabilityMap[string] = {};
    for (const cap of CAPABILITIES) {
      const list = service?.get(cap);
      if (list) entry[cap] = Object.freeze(list.sort(compareActionNames)) as string[];
    }
    map[name] = Object.freeze(entry);
  }
  awsMap = Object.freeze(map);
  return awsMap;
}
