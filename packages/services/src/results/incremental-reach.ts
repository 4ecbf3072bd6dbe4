import type { StoredResourceHead, StoredResourceResult } from "@sightline/db";
import type { ResourceAccessSummary } from "@sightline/engine";
import { grantNames, grantText } from "./grant-names.ts";
import type { DictionaryHead } from "./reach-dictionary.ts";
import {
  type AppendedNumbering,
  isConditional,
  isInAccount,
  ReachWriter,
  scanReach,
} from "./reach-encoding.ts";
import { ReachSummer, type RecordedResource, RISKY } from "./record-text.ts";
import {
  appendableReach,
  compareEntries,
  decodeResourceOutside,
  holdersRecord,
  type ReachEntry,
  type ResourceRecord,
  resourceBase,
  resourceParts,
  withReach,
} from "./result-records.ts";
import type { StoredResourceItem } from "./stored-items.ts";

/**
 * What an event step does to the stored reach of resources it does not remake: tell where the
 * changed principals' reach differs, and replace their entries there.
 */

/** FNV-1a of a text from a seed: 32 bits. */
function fnv(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

const rowText = (row: ResourceAccessSummary) =>
  `${row.principal}|${row.principalType}|${row.capability}|${row.inAccount}|${row.conditional}|${grantText(row.grantedBy)}`;

/**
 * Each resource's rows (of the changed principals), reduced to a fingerprint that does not
 * depend on their order: two sums of 32-bit hashes of each row, a multiset hash. Rows come
 * resource by resource (`principalReach`); `keep` says whose rows to hold once all have passed.
 */
export function reachFingerprints(
  rows: Iterable<ResourceAccessSummary>,
  keep?: (arn: string, fingerprint: string) => boolean,
): { fingerprints: Map<string, string>; kept: Map<string, ResourceAccessSummary[]> } {
  const fingerprints = new Map<string, string>();
  const kept = new Map<string, ResourceAccessSummary[]>();
  let arn: string | undefined;
  let group: ResourceAccessSummary[] = [];
  let [a, b, count] = [0, 0, 0];
  const close = () => {
    if (arn === undefined) return;
    if (fingerprints.has(arn)) throw new Error(`The reach of ${arn} did not come in one run.`);
    const fingerprint = `${a}.${b}.${count}`;
    fingerprints.set(arn, fingerprint);
    if (keep?.(arn, fingerprint)) kept.set(arn, group);
  };
  for (const row of rows) {
    if (row.resourceArn !== arn) {
      close();
      [arn, group, a, b, count] = [row.resourceArn, [], 0, 0, 0];
    }
    const text = rowText(row);
    a = (a + fnv(text, 2166136261)) >>> 0;
    b = (b + fnv(text, 0x9747b28c)) >>> 0;
    // Counted whether or not the rows are kept (the count of the kept ones was 0 otherwise,
    // and every resource the principals reached before looked changed).
    count++;
    if (keep) group.push(row);
  }
  close();
  return { fingerprints, kept };
}

/**
 * Which numbers of a dictionary name one of `principals`: looked up once per step, not once per
 * resource patched (10,000 names for each of 600 resources on the large account).
 */
export function principalNumbers(
  dictionary: Pick<DictionaryHead, "principals">,
  principals: ReadonlySet<string>,
): Uint8Array {
  const numbers = new Uint8Array(dictionary.principals.length);
  dictionary.principals.forEach(([arn], i) => {
    if (principals.has(arn)) numbers[i] = 1;
  });
  return numbers;
}

/**
 * A stored resource with the given principals' entries (`dropped`: `principalNumbers`) replaced
 * by `rows`: the other entries' bytes are kept as they are (their numbers are the previous
 * dictionary's, which the new one extends), and who reaches it is summed up again for the
 * findings.
 */
export function patchReach(
  stored: StoredResourceResult,
  rows: readonly ResourceAccessSummary[],
  dropped: Uint8Array,
  dictionary: Pick<DictionaryHead, "principals" | "capabilities">,
  numbering: AppendedNumbering,
): PatchedResource {
  const { header, headerBytes, reach } = resourceParts(stored);
  // The changed principals' previous entries, for the comparison (`patchedItem`).
  const before: ReachEntry[] = [];
  // A principal holds a capability on a resource once: the holders of a capability are its
  // entries, counted without naming them. Only principals outside the account are named.
  const outside = new ReachSummer();
  const counts = new Map<string, number>();
  const perNumber = new Int32Array(dictionary.capabilities.length);
  const kept: Uint8Array[] = [];
  let runStart = 0;
  scanReach(reach, (principal, capability, _grants, flags, start, end) => {
    if (dropped[principal] === 1) {
      if (start > runStart) kept.push(reach.subarray(runStart, start));
      runStart = end;
      const [arn, type] = dictionary.principals[principal] ?? ["", ""];
      before.push([
        arn,
        type,
        dictionary.capabilities[capability] ?? "",
        isInAccount(flags) ? 1 : 0,
        isConditional(flags) ? 1 : 0,
        [],
      ]);
      return;
    }
    perNumber[capability] = (perNumber[capability] ?? 0) + 1;
    if (!isInAccount(flags)) {
      const [arn, type] = dictionary.principals[principal] ?? ["", ""];
      outside.add(arn, type, dictionary.capabilities[capability] ?? "", false, principal);
    }
  });
  if (reach.length > runStart) kept.push(reach.subarray(runStart));
  perNumber.forEach((n, i) => {
    const capability = dictionary.capabilities[i] ?? "";
    if (n > 0 && RISKY.has(capability)) counts.set(capability, (counts.get(capability) ?? 0) + n);
  });
  const writer = new ReachWriter();
  for (const row of rows) {
    writer.add(numbering, row);
    if (RISKY.has(row.capability))
      counts.set(row.capability, (counts.get(row.capability) ?? 0) + 1);
  }
  const summary = { holders: counts, outside: outside.summary().outside };
  const head = resourceBase(stored, header);
  return {
    head,
    summary,
    stored: withReach(stored, headerBytes, [...kept, writer.bytes()], counts),
    compared: { head, before, after: rows.map(rowEntry) },
  };
}

/**
 * A resource the changed principals reached nothing of before and reach now: their entries are
 * appended to its stored reach in Postgres (`appendResourceReach`), which the worker neither
 * reads nor deflates again: the large account's new administrator reaches 4,700 resources, whose
 * reach took 1 s of a step to read, inflate, patch, deflate and write back. Its holders are the
 * stored ones and theirs; the outside reach is the stored one (the changed principals are in the
 * account).
 */
export function appendReach(
  stored: StoredResourceHead,
  rows: readonly ResourceAccessSummary[],
  numbering: AppendedNumbering,
): AppendedResource {
  const counts = new Map(Object.entries(stored.holders));
  const writer = new ReachWriter();
  for (const row of rows) {
    if (!row.inAccount)
      throw new Error(`${row.principal} is outside the account: its entries are not appended.`);
    writer.add(numbering, row);
    if (RISKY.has(row.capability))
      counts.set(row.capability, (counts.get(row.capability) ?? 0) + 1);
  }
  const outsideRecord = decodeResourceOutside(stored);
  const outside = new ReachSummer();
  for (const [principal, type, capability] of outsideRecord.reach)
    outside.add(principal, type, capability, false);
  const { reach: _reach, ...head } = outsideRecord;
  return {
    head,
    summary: { holders: counts, outside: outside.summary().outside },
    stored,
    append: appendableReach(writer.bytes()),
    holders: holdersRecord(counts),
    compared: { head, before: [], after: rows.map(rowEntry) },
  };
}

/** A resource whose changed principals' entries are appended (`appendReach`). */
export interface AppendedResource {
  head: Omit<ResourceRecord, "reach">;
  summary: RecordedResource["summary"];
  stored: StoredResourceHead;
  /** Their entries, as blocks to append to the stored reach. */
  append: Buffer;
  holders: Record<string, number>;
  compared: PatchedResource["compared"];
}

/**
 * An appended resource as the comparison reads it (`patchedItem`'s): its reach differs, its
 * outside reach is the one it had.
 */
export function appendedItem(
  resource: AppendedResource,
  side: "before" | "after",
): StoredResourceItem {
  const { stored, compared } = resource;
  const item: StoredResourceItem & { stored: StoredResourceHead } = {
    key: stored.resourceArn,
    confidentiality: stored.confidentiality,
    stored,
    sameAs: () => false,
    sameOutsideAs: (other) =>
      (other as unknown as { stored: StoredResourceHead }).stored.outside.equals(stored.outside),
    decode: () => ({
      ...compared.head,
      reach: [...compared[side]].sort((a, b) => compareEntries(a, b, 3)),
    }),
    decodeOutside: () => decodeResourceOutside(stored),
  };
  return item;
}

/** A patched resource, with the changed principals' entries before and after for the comparison. */
export interface PatchedResource extends RecordedResource {
  compared: {
    head: Omit<ResourceRecord, "reach">;
    /** Their entries in the previous version (naming no policies: `patchedItem`). */
    before: ReachEntry[];
    after: ReachEntry[];
  };
}

const rowEntry = (row: ResourceAccessSummary): ReachEntry => [
  row.principal,
  row.principalType,
  row.capability,
  row.inAccount ? 1 : 0,
  row.conditional ? 1 : 0,
  [...grantNames(row.grantedBy)],
];

/**
 * A patched resource as the comparison reads it: decoded to the entries of the changed principals
 * only (their previous entries, or their rows now), as `patchReach` found them: nothing is
 * inflated again. Every other entry is the same bytes with the same numbers in both versions, so
 * it matches itself, and a comparison that reports the entries gained finds what it would find in
 * the whole reach — without reading the analyses' reach dictionaries (the large account's: 60 MB
 * of JSON) and decoding every entry of every patched confidential resource. The previous
 * version's entries name no policies: an entry already there is not reported.
 */
export function patchedItem(
  item: StoredResourceItem,
  compared: PatchedResource["compared"],
  side: "before" | "after",
): StoredResourceItem {
  return {
    ...item,
    async decode(): Promise<ResourceRecord> {
      return {
        ...compared.head,
        reach: [...compared[side]].sort((a, b) => compareEntries(a, b, 3)),
      };
    },
  };
}
