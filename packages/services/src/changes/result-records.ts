import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { deflateRaw, inflateRaw } from "node:zlib";
import { getAwsCapabilityMap, getAzureCapabilityMap } from "@sightline/capabilities";
import type { StoredPrincipalResult, StoredResourceResult } from "@sightline/db";
import {
  type AccountAnalysis,
  ENGINE_VERSION,
  formatGrantSource,
  type GrantSource,
  type PrincipalAccessSummary,
  type ResourceAccessSummary,
} from "@sightline/engine";
import { findWellKnownTags } from "@sightline/reports";

const deflateAsync = promisify(deflateRaw);
const inflateAsync = promisify(inflateRaw);

/** A credential as the reports state it: `Active`/`Inactive`, and its dates (ISO). */
export interface CredentialState {
  state: string;
  lastUsed?: string;
  lastRotated?: string;
}

/** A principal's access: service, capability, resource pattern ("" service-wide), conditional, granted by. */
export type AccessEntry = readonly [string, string, string, 0 | 1, readonly string[]];
/** Who reaches a resource: principal, its type, capability, in the account, conditional, granted by. */
export type ReachEntry = readonly [string, string, string, 0 | 1, 0 | 1, readonly string[]];

/** What the store keeps of one principal of an analysis. */
export interface PrincipalRecord {
  arn: string;
  name: string;
  type: string;
  iamAdmin: "yes" | "conditional" | "no";
  iamAdminGrantedBy: readonly string[];
  /** ISO time; absent when never used (or unknown). */
  lastUsed?: string;
  credentials: {
    password?: CredentialState;
    accessKey1?: CredentialState;
    accessKey2?: CredentialState;
  };
  /** Sorted by service, capability, resource. */
  access: readonly AccessEntry[];
}

/** What the store keeps of one resource of an analysis. */
export interface ResourceRecord {
  arn: string;
  type: string;
  /** As the reports name it: `S3`, `KMS`, `IAM`, an Azure provider. */
  service: string;
  name: string;
  tags: Readonly<Record<string, string>>;
  /** The `resource_tag_confidentiality` value ("" when none). */
  confidentiality: string;
  /** Sorted by principal, capability. */
  reach: readonly ReachEntry[];
}

const digest = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 12);
let resultsVersion: string | undefined;

/**
 * The version results are stored under: the engine's, and digests of both capability maps (a
 * catalogue update can move an action to another capability).
 */
export function currentResultsVersion(): string {
  resultsVersion ??= `${ENGINE_VERSION}+aws.${digest(getAwsCapabilityMap())}+azure.${digest(getAzureCapabilityMap())}`;
  return resultsVersion;
}

export const grantNames = (sources: readonly GrantSource[] | undefined): string[] =>
  (sources ?? []).map(formatGrantSource);

/** Code-point order: UTF-8 byte order, which is how Postgres sorts `COLLATE "C"`. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const compareTuples = (a: readonly unknown[], b: readonly unknown[], n: number) => {
  for (let i = 0; i < n; i++) {
    const order = compareCodePoints(String(a[i]), String(b[i]));
    if (order !== 0) return order;
  }
  return 0;
};

/** Each principal's access rows gathered (the engine yields a principal's rows together). */
export function* accessByPrincipal(
  rows: Iterable<PrincipalAccessSummary>,
): Generator<[string, AccessEntry[]]> {
  let arn: string | undefined;
  let entries: AccessEntry[] = [];
  for (const row of rows) {
    if (row.principalArn !== arn) {
      if (arn !== undefined) yield [arn, entries.sort((a, b) => compareTuples(a, b, 3))];
      arn = row.principalArn;
      entries = [];
    }
    entries.push([
      row.service,
      row.capability,
      row.resourceArn,
      row.conditional ? 1 : 0,
      grantNames(row.grantedBy),
    ]);
  }
  if (arn !== undefined) yield [arn, entries.sort((a, b) => compareTuples(a, b, 3))];
}

/** Each resource's reach gathered (the engine yields a resource's rows together). */
export function* reachByResource(
  rows: Iterable<ResourceAccessSummary>,
): Generator<[string, ReachEntry[]]> {
  let arn: string | undefined;
  let entries: ReachEntry[] = [];
  for (const row of rows) {
    if (row.resourceArn !== arn) {
      if (arn !== undefined) yield [arn, entries.sort((a, b) => compareTuples(a, b, 3))];
      arn = row.resourceArn;
      entries = [];
    }
    entries.push([
      row.principal,
      row.principalType,
      row.capability,
      row.inAccount ? 1 : 0,
      row.conditional ? 1 : 0,
      grantNames(row.grantedBy),
    ]);
  }
  if (arn !== undefined) yield [arn, entries.sort((a, b) => compareTuples(a, b, 3))];
}

/**
 * The engine's principals as records, each with its access, in the order the access rows come
 * (a principal's rows are together; AWS and Azure order principals differently), then the
 * principals without access.
 */
export function* principalRecords(
  analysis: AccountAnalysis,
  details: (arn: string) => Pick<PrincipalRecord, "lastUsed" | "credentials">,
): Generator<PrincipalRecord> {
  const rows = new Map(analysis.principals.map((row) => [row.principalArn, row]));
  const record = (arn: string, access: AccessEntry[]): PrincipalRecord | undefined => {
    const row = rows.get(arn);
    if (!row) return undefined;
    rows.delete(arn);
    return {
      arn,
      name: row.principalName,
      type: row.principalType,
      iamAdmin: row.iamAdmin,
      iamAdminGrantedBy: grantNames(row.iamAdminGrantedBy),
      ...details(arn),
      access,
    };
  };
  for (const [arn, access] of accessByPrincipal(analysis.principalAccessSummaries())) {
    const found = record(arn, access);
    if (found) yield found;
  }
  for (const arn of [...rows.keys()]) {
    const found = record(arn, []);
    if (found) yield found;
  }
}

/**
 * The engine's resources as records, each with who reaches it, in the order the access rows
 * come, then those nobody reaches; `extra` adds collected resources the engine has no row of.
 */
export function* resourceRecords(
  analysis: AccountAnalysis,
  details: (arn: string) => { name: string; tags: Readonly<Record<string, string>> },
  extra: Iterable<{ resourceArn: string; resourceType: string; service: string }> = [],
): Generator<ResourceRecord> {
  const rows = new Map<string, { resourceType: string; service: string }>();
  for (const row of analysis.resources) rows.set(row.resourceArn, row);
  for (const row of extra) if (!rows.has(row.resourceArn)) rows.set(row.resourceArn, row);
  const record = (arn: string, reach: ReachEntry[]): ResourceRecord | undefined => {
    const row = rows.get(arn);
    if (!row) return undefined;
    rows.delete(arn);
    const { name, tags } = details(arn);
    return {
      arn,
      type: row.resourceType,
      service: row.service,
      name,
      tags,
      confidentiality: confidentialityOf(tags),
      reach,
    };
  };
  for (const [arn, reach] of reachByResource(analysis.resourceAccessSummaries())) {
    const found = record(arn, reach);
    if (found) yield found;
  }
  for (const arn of [...rows.keys()]) {
    const found = record(arn, []);
    if (found) yield found;
  }
}

/** The tag the reports put in `resource_tag_confidentiality` (`Confidentiality`, any case or spelling). */
function confidentialityOf(tags: Readonly<Record<string, string>>): string {
  return findWellKnownTags(tags).confidentiality ?? "";
}

/** Deflated JSON for the store, and back. */
export async function encodePrincipal(record: PrincipalRecord): Promise<StoredPrincipalResult> {
  const { arn, name, type, iamAdmin, ...rest } = record;
  return {
    principalArn: arn,
    principalName: name,
    principalType: type,
    iamAdmin,
    data: await deflateAsync(JSON.stringify(rest), { level: 1 }),
  };
}

export async function decodePrincipal(stored: StoredPrincipalResult): Promise<PrincipalRecord> {
  const rest = JSON.parse((await inflateAsync(stored.data)).toString("utf8"));
  return {
    arn: stored.principalArn,
    name: stored.principalName,
    type: stored.principalType,
    iamAdmin: stored.iamAdmin as PrincipalRecord["iamAdmin"],
    ...rest,
  };
}

export async function encodeResource(record: ResourceRecord): Promise<StoredResourceResult> {
  const { arn, type, name, confidentiality, ...rest } = record;
  return {
    resourceArn: arn,
    resourceType: type,
    resourceName: name,
    confidentiality,
    data: await deflateAsync(JSON.stringify(rest), { level: 1 }),
  };
}

export async function decodeResource(stored: StoredResourceResult): Promise<ResourceRecord> {
  const rest = JSON.parse((await inflateAsync(stored.data)).toString("utf8"));
  return {
    arn: stored.resourceArn,
    type: stored.resourceType,
    name: stored.resourceName,
    confidentiality: stored.confidentiality,
    ...rest,
  };
}
