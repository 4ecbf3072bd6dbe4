import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createDeflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";
import { getAwsCapabilityMap, getAzureCapabilityMap } from "@sightline/capabilities";
import type { StoredPrincipalResult, StoredResourceResult } from "@sightline/db";
import { ENGINE_VERSION } from "@sightline/engine";
import { decodeReach, type ReachDictionary } from "./reach-encoding.ts";
import type { StoredItem, StoredResourceItem } from "./stored-items.ts";

// Synchronous: a record is a few kilobytes, and zlib's thread pool costs far more CPU handing
// over 10,000 of them (8x, measured on the large account's principals) than deflating them.
// zlib's output is a view of its 16 KiB output buffer: kept as it is, every record of an
// analysis held 16 KiB outside the heap until stored (~450 MiB of the large account's RSS while
// its reports were written). A small output is copied to a buffer of its own size.
const ownBuffer = (out: Buffer) =>
  out.byteLength * 2 < out.buffer.byteLength ? Buffer.from(out) : out;
const deflate = (data: string | Uint8Array): Buffer =>
  ownBuffer(deflateRawSync(data, { level: 1 }));
// A resource's reach (`data`) is deflated up to a sync flush, then ends with an empty final block
// (`APPENDABLE_END`): an event step appends another such stream in Postgres in place of those two
// bytes (`appendResourceReach`), and the whole still inflates as one stream, by this build or an
// older one.
const APPENDABLE_END = Buffer.from([0x03, 0x00]);
const deflateAppendable = (data: Uint8Array): Buffer =>
  Buffer.concat([
    deflateRawSync(data, { level: 1, finishFlush: constants.Z_SYNC_FLUSH }),
    APPENDABLE_END,
  ]);
const inflate = (data: Uint8Array) => inflateRawSync(data);

/** Entries up to this many bytes are appended as they are: zlib's set-up costs more than they weigh. */
const STORED_APPEND_BYTES = 1024;

/**
 * Reach entries (`ReachWriter`'s bytes) as a stream to append to a stored resource's `data`. A
 * few entries (a new administrator's six on each of 4,700 resources) go in a stored deflate block,
 * written here: a zlib stream for each took 50 ms of the large account's admin step. A stored
 * block (RFC 1951, 3.2.4) is a byte 0 (not final, type 00, the bits up to the byte), the length
 * and its complement (16 bits each, little-endian), then the bytes.
 */
export function appendableReach(reach: Uint8Array): Buffer {
  if (reach.length > STORED_APPEND_BYTES) return deflateAppendable(reach);
  const out = Buffer.alloc(5 + reach.length + APPENDABLE_END.length);
  out.writeUInt16LE(reach.length, 1);
  out.writeUInt16LE(reach.length ^ 0xffff, 3);
  out.set(reach, 5);
  APPENDABLE_END.copy(out, 5 + reach.length);
  return out;
}

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
 * How records are encoded: results stored in another encoding are re-analysed as another engine's.
 * 3: a resource's reach can be appended to (`appendableReach`), and its holders are stored beside it.
 */
const RECORD_ENCODING = 3;

/**
 * The version results are stored under: the record encoding's, the engine's, and digests of both
 * capability maps (a catalogue update can move an action to another capability).
 */
export function currentResultsVersion(): string {
  resultsVersion ??= `${ENGINE_VERSION}+records.${RECORD_ENCODING}+aws.${digest(getAwsCapabilityMap())}+azure.${digest(getAzureCapabilityMap())}`;
  return resultsVersion;
}

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

/**
 * The order of a record's entries by their first `n` members: any total order serves, as both
 * analyses' entries are sorted by it; UTF-16 order is the fastest.
 */
export function compareEntries(a: readonly unknown[], b: readonly unknown[], n: number): number {
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The entries of a stored record back as tuples, sorted for the comparison. */
function entriesOf<T extends readonly unknown[]>(
  stored: { grants: string[][]; [field: string]: unknown },
  field: string,
): T[] {
  const rows = stored[field] as unknown[][];
  return rows
    .map(
      (row) =>
        [...row.slice(0, -1), stored.grants[row[row.length - 1] as number] ?? []] as unknown as T,
    )
    .sort((a, b) => compareEntries(a, b, 3));
}

/** A stored principal, decoded only when it differs from its namesake. */
export function storedPrincipal(stored: StoredPrincipalResult): StoredItem<PrincipalRecord> {
  const sameAccess = (o: StoredPrincipalResult) =>
    o.iamAdmin === stored.iamAdmin &&
    o.principalName === stored.principalName &&
    o.principalType === stored.principalType &&
    o.data.equals(stored.data);
  return {
    key: stored.principalArn,
    sameAs(other) {
      const o = (other as unknown as { stored: StoredPrincipalResult }).stored;
      return sameAccess(o) && JSON.stringify(o.details) === JSON.stringify(stored.details);
    },
    sameAccessAs(other) {
      return sameAccess((other as unknown as { stored: StoredPrincipalResult }).stored);
    },
    decode: () => decodePrincipal(stored),
    decodeWithoutAccess: () => decodePrincipal(stored, true),
    stored,
  } as StoredItem<PrincipalRecord>;
}

/**
 * A stored resource, decoded only when it differs from its namesake (and then in part if it can);
 * `dictionary` gives its analysis's reach dictionary (read once per analysis, when first needed).
 * `renumbered`: whether its reach uses a number that the namesake's analysis gives to another
 * principal or capability (`numberAgreement`); equal bytes are the same reach only if not.
 */
export function storedResource(
  stored: StoredResourceResult,
  dictionary: () => Promise<ReachDictionary>,
  renumbered?: (stored: StoredResourceResult) => boolean,
): StoredResourceItem {
  const columnsEqual = (o: StoredResourceResult) =>
    o.resourceType === stored.resourceType && o.resourceName === stored.resourceName;
  return {
    key: stored.resourceArn,
    confidentiality: stored.confidentiality,
    sameAs(other) {
      const o = (other as unknown as { stored: StoredResourceResult }).stored;
      return (
        columnsEqual(o) &&
        o.confidentiality === stored.confidentiality &&
        o.data.equals(stored.data) &&
        !renumbered?.(stored)
      );
    },
    sameOutsideAs(other) {
      const o = (other as unknown as { stored: StoredResourceResult }).stored;
      return columnsEqual(o) && o.outside.equals(stored.outside);
    },
    decode: () => decodeResource(stored, dictionary),
    decodeOutside: () => decodeResourceOutside(stored),
    stored,
  } as StoredResourceItem;
}

/** Deflated JSON for the store, and back. */
export function encodePrincipal(
  head: Omit<PrincipalRecord, "access">,
  json: string,
): StoredPrincipalResult {
  const { arn, name, type, iamAdmin, lastUsed, credentials } = head;
  return {
    principalArn: arn,
    principalName: name,
    principalType: type,
    iamAdmin,
    data: deflate(json),
    details: { ...(lastUsed ? { lastUsed } : {}), credentials },
  };
}

type PrincipalDetails = Pick<PrincipalRecord, "lastUsed" | "credentials">;
const detailsOf = (stored: StoredPrincipalResult): PrincipalDetails => {
  const details = (stored.details ?? {}) as Partial<PrincipalDetails>;
  return {
    ...(details.lastUsed ? { lastUsed: details.lastUsed } : {}),
    credentials: details.credentials ?? {},
  };
};

/** A stored principal; with `withoutAccess`, its access is left out (not even inflated). */
export function decodePrincipal(
  stored: StoredPrincipalResult,
  withoutAccess = false,
): PrincipalRecord {
  const base = {
    arn: stored.principalArn,
    name: stored.principalName,
    type: stored.principalType,
    iamAdmin: stored.iamAdmin as PrincipalRecord["iamAdmin"],
    ...detailsOf(stored),
  };
  if (withoutAccess) return { ...base, iamAdminGrantedBy: [], access: [] };
  const rest = JSON.parse(inflate(stored.data).toString("utf8"));
  return {
    ...base,
    iamAdminGrantedBy: rest.iamAdminGrantedBy ?? [],
    access: entriesOf<AccessEntry>(rest, "access"),
  };
}

/** A resource's columns and its deflated parts: service, tags and reach; the outside reach. */
export function encodeResource(
  head: Omit<ResourceRecord, "reach">,
  headerJson: string,
  reach: Uint8Array,
  outsideJson: string,
  holders: ReadonlyMap<string, number>,
): StoredResourceResult {
  const { arn, type, name, confidentiality } = head;
  const header = Buffer.from(headerJson, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const data = deflateAppendable(Buffer.concat([length, header, reach]));
  const outside = deflate(outsideJson);
  return {
    resourceArn: arn,
    resourceType: type,
    resourceName: name,
    confidentiality,
    data,
    outside,
    holders: holdersRecord(holders),
  };
}

/** Holders as stored: the capabilities held, in a fixed order. */
export function holdersRecord(holders: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries(
    [...holders].filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** A stored resource's parts: its header (service and tags) and its reach bytes. */
export function resourceParts(stored: StoredResourceResult): {
  header: { service?: string; tags?: Record<string, string> };
  headerBytes: Buffer;
  reach: Buffer;
} {
  const bytes = inflate(stored.data);
  const headerEnd = 4 + bytes.readUInt32BE(0);
  const headerBytes = bytes.subarray(4, headerEnd);
  return {
    header: JSON.parse(headerBytes.toString("utf8")),
    headerBytes,
    reach: bytes.subarray(headerEnd),
  };
}

/** A stored resource with other reach bytes and holders (its columns and outside reach as they were). */
export function withReach(
  stored: StoredResourceResult,
  headerBytes: Buffer,
  reach: readonly Uint8Array[],
  holders: ReadonlyMap<string, number>,
): StoredResourceResult {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  return {
    ...stored,
    data: deflateAppendable(Buffer.concat([length, headerBytes, ...reach])),
    holders: holdersRecord(holders),
  };
}

/** Grant lists per piece of the dictionary's JSON text (about 0.4 MB on the large account). */
const GRANTS_PER_PIECE = 2_000;

/** `JSON.stringify(dictionary)`, a piece at a time. */
export function* reachDictionaryJson(dictionary: ReachDictionary): Generator<string> {
  const { principals, capabilities, grants } = dictionary;
  // The count comes before the lists: an event step reads no further (`reach-dictionary.ts`).
  yield `{"principals":${JSON.stringify(principals)},"capabilities":${JSON.stringify(capabilities)},"grantCount":${grants.length},"grants":[`;
  for (let i = 0; i < grants.length; i += GRANTS_PER_PIECE) {
    const text = JSON.stringify(grants.slice(i, i + GRANTS_PER_PIECE));
    yield `${i > 0 ? "," : ""}${text.slice(1, -1)}`;
  }
  yield "]}";
}

/**
 * An analysis's reach dictionary, stored with its results: its JSON deflated a piece at a time.
 * The large account's is 60 MB of JSON (330,000 grant lists; 3 MB deflated): made as one string,
 * it and its UTF-8 copy raised the worker's peak RSS by about 110 MiB.
 */
export async function encodeReachDictionary(dictionary: ReachDictionary): Promise<Buffer> {
  const parts: Buffer[] = [];
  await pipeline(
    Readable.from(reachDictionaryJson(dictionary), { objectMode: false }),
    createDeflateRaw({ level: 1 }),
    async (deflated: AsyncIterable<Buffer>) => {
      for await (const part of deflated) parts.push(part);
    },
  );
  return Buffer.concat(parts);
}

export function decodeReachDictionary(stored: Buffer): ReachDictionary {
  return JSON.parse(inflate(stored).toString("utf8")) as ReachDictionary;
}

/** A stored resource with everyone who reaches it (numbered after `dictionary`). */
export async function decodeResource(
  stored: StoredResourceResult,
  dictionary: () => Promise<ReachDictionary>,
): Promise<ResourceRecord> {
  const bytes = inflate(stored.data);
  const headerEnd = 4 + bytes.readUInt32BE(0);
  const header = JSON.parse(bytes.subarray(4, headerEnd).toString("utf8"));
  const reach = decodeReach(bytes.subarray(headerEnd), await dictionary());
  return {
    ...resourceBase(stored, header),
    reach: reach.sort((a, b) => compareEntries(a, b, 3)),
  };
}

/** A stored resource with only those who reach it from outside its account. */
export function decodeResourceOutside(stored: Omit<StoredResourceResult, "data">): ResourceRecord {
  const rest = JSON.parse(inflate(stored.outside).toString("utf8"));
  return { ...resourceBase(stored, rest), reach: entriesOf<ReachEntry>(rest, "reach") };
}

/** A stored resource's record but its reach: its columns and its header's service and tags. */
export const resourceBase = (
  stored: Pick<
    StoredResourceResult,
    "resourceArn" | "resourceType" | "resourceName" | "confidentiality"
  >,
  header: { service?: string; tags?: Record<string, string> },
) => ({
  arn: stored.resourceArn,
  type: stored.resourceType,
  service: header.service ?? "",
  name: stored.resourceName,
  tags: header.tags ?? {},
  confidentiality: stored.confidentiality,
});
