import type { GrantSource, ResourceAccessSummary } from "@sightline/engine";
import { RecurringLookup } from "@sightline/reports";
import { grantName, grantNames } from "./grant-names.ts";
import type { ReachEntry } from "./result-records.ts";

/**
 * Who reaches a resource, stored as numbers. The large account's resources are reached by 6.4 M
 * (principal, capability) pairs, nearly all by the same few thousand principals through the same
 * few thousand policies: as JSON they were 590 MB to build and deflate for every analysis. Each
 * entry is now a few bytes naming its principal, capability and granting policies by their number
 * in one dictionary per analysis, stored with the analysis's results.
 *
 * The numbers belong to one analysis: two analyses' bytes are equal only when their dictionaries
 * agree too, so equal bytes still mean equal reach, and unequal bytes are decoded and compared
 * entry by entry (only a confidential resource's whole reach is ever compared).
 */

/** What the numbers of an analysis's reach stand for. */
export interface ReachDictionary {
  /** [principal, its type] by number. */
  principals: [string, string][];
  capabilities: string[];
  /** The names of the policies that grant an entry, by number. */
  grants: string[][];
}

const NO_SOURCES: readonly GrantSource[] = Object.freeze([]);
/**
 * Lists `ReachNumbering.grants` compares with first. Of the large account's 4.2 M resource-access
 * rows, 19 % carry the list of the row before, 35 % one of the last 8, 51 % of the last 64: most
 * lists name a principal's own policies, met once per capability and resource.
 */
const RECENT_LISTS = 8;

const FLAG_IN_ACCOUNT = 1;
const FLAG_CONDITIONAL = 2;

/** What `ReachWriter` numbers an entry's principal, capability and granting policies with. */
export interface ReachNumberer {
  principal(principal: string, type: string): number;
  capability(capability: string): number;
  grants(sources: readonly GrantSource[] | undefined): number;
}

/** Numbers the principals, capabilities and grant lists of one analysis's resources. */
export class ReachNumbering implements ReachNumberer {
  readonly #principals = new Map<string, number>();
  readonly #principalList: [string, string][] = [];
  readonly #capabilities = new Map<string, number>();
  readonly #capabilityList: string[] = [];
  /** A policy's number by its name: two sources named alike are one. */
  readonly #nameIds = new Map<string, number>();
  readonly #sourceIds = new Map<GrantSource, number>();
  /**
   * A list's number by its policies' numbers: a list of one by the number itself, of two by
   * both in one number, longer lists by their numbers joined (a list object is rarely met twice:
   * the engine builds one per resource and class of principals).
   */
  readonly #single: number[] = [];
  readonly #pairs = new Map<number, number>();
  readonly #lists = new Map<string, number>();
  readonly #grantList: string[][] = [];
  /**
   * The last lists met and their numbers, looked at before anything else: the engine hands one
   * list to every member of a class on a resource, and a resource's classes take turns.
   */
  readonly #recentLists: (readonly GrantSource[] | undefined)[] = new Array(RECENT_LISTS);
  readonly #recentIds = new Int32Array(RECENT_LISTS);
  #nextRecent = 0;
  #lastCapability = "";
  #lastCapabilityId = -1;

  /**
   * A principal's number by its name, numbered with the type it first comes with: a resource's
   * rows name principals in recurring runs. `#typeOfNext` is the type of the look-up under way.
   */
  readonly #principalNumbers = new RecurringLookup((principal) =>
    this.#number(principal, principal, this.#typeOfNext),
  );
  #typeOfNext = "";

  principal(principal: string, type: string): number {
    this.#typeOfNext = type;
    const id = this.#principalNumbers.get(principal);
    if (this.#principalList[id]?.[1] === type) return id;
    // A principal has one type; should two rows disagree, the pair is numbered on its own.
    return this.#number(`${type}\u0000${principal}`, principal, type);
  }

  #number(key: string, principal: string, type: string): number {
    let id = this.#principals.get(key);
    if (id === undefined) {
      id = this.#principalList.length;
      this.#principals.set(key, id);
      this.#principalList.push([principal, type]);
    }
    return id;
  }

  capability(capability: string): number {
    // The engine gives a capability's holders one after another.
    if (capability === this.#lastCapability) return this.#lastCapabilityId;
    let id = this.#capabilities.get(capability);
    if (id === undefined) {
      id = this.#capabilityList.length;
      this.#capabilities.set(capability, id);
      this.#capabilityList.push(capability);
    }
    this.#lastCapability = capability;
    this.#lastCapabilityId = id;
    return id;
  }

  #nameId(source: GrantSource): number {
    let id = this.#sourceIds.get(source);
    if (id === undefined) {
      const name = grantName(source);
      id = this.#nameIds.get(name);
      if (id === undefined) {
        id = this.#nameIds.size;
        this.#nameIds.set(name, id);
      }
      this.#sourceIds.set(source, id);
    }
    return id;
  }

  #listOf<K>(lists: Map<K, number>, key: K, sources: readonly GrantSource[]): number {
    let id = lists.get(key);
    if (id === undefined) {
      id = this.#grantList.length;
      lists.set(key, id);
      this.#grantList.push([...grantNames(sources)]);
    }
    return id;
  }

  grants(sources: readonly GrantSource[] | undefined): number {
    const list = sources ?? NO_SOURCES;
    for (let i = 0; i < RECENT_LISTS; i++)
      if (this.#recentLists[i] === list) return this.#recentIds[i] as number;
    let id: number;
    if (list.length === 1) {
      const nameId = this.#nameId(list[0] as GrantSource);
      id = this.#single[nameId] ?? -1;
      if (id < 0) {
        id = this.#listOf(this.#lists, `${nameId}`, list);
        this.#single[nameId] = id;
      }
    } else if (list.length === 2) {
      const key =
        this.#nameId(list[0] as GrantSource) * 2 ** 26 + this.#nameId(list[1] as GrantSource);
      id = this.#listOf(this.#pairs, key, list);
    } else {
      const key = list.map((s) => this.#nameId(s)).join(",");
      id = this.#listOf(this.#lists, key, list);
    }
    const slot = this.#nextRecent;
    this.#recentLists[slot] = list;
    this.#recentIds[slot] = id;
    this.#nextRecent = (slot + 1) % RECENT_LISTS;
    return id;
  }

  dictionary(): ReachDictionary {
    return {
      principals: this.#principalList,
      capabilities: this.#capabilityList,
      grants: this.#grantList,
    };
  }
}

/**
 * Numbers after those of an earlier analysis's dictionary (`base`: its lengths), for an event
 * step's results: the rows it copies keep their numbers, and what it adds is numbered anew (a
 * list the earlier dictionary holds too gets a second number: equal bytes still mean equal reach).
 */
export class AppendedNumbering implements ReachNumberer {
  readonly added = new ReachNumbering();

  constructor(readonly base: { principals: number; capabilities: number; grants: number }) {}

  principal(principal: string, type: string): number {
    return this.base.principals + this.added.principal(principal, type);
  }

  capability(capability: string): number {
    return this.base.capabilities + this.added.capability(capability);
  }

  grants(sources: readonly GrantSource[] | undefined): number {
    return this.base.grants + this.added.grants(sources);
  }
}

/** One resource's entries as bytes: each entry's numbers as unsigned LEB128, then its flags. */
export class ReachWriter {
  #bytes = new Uint8Array(256);
  #length = 0;

  #varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.#bytes[this.#length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#bytes[this.#length++] = v;
  }

  /** Adds a row; returns its principal's number. */
  add(numbering: ReachNumberer, row: ResourceAccessSummary): number {
    if (this.#length + 20 > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    const principal = numbering.principal(row.principal, row.principalType);
    this.#varint(principal);
    this.#varint(numbering.capability(row.capability));
    this.#varint(numbering.grants(row.grantedBy));
    this.#bytes[this.#length++] =
      (row.inAccount ? FLAG_IN_ACCOUNT : 0) | (row.conditional ? FLAG_CONDITIONAL : 0);
    return principal;
  }

  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }
}

/** The entries of `ReachWriter`'s bytes, named after the analysis's dictionary. */
export function decodeReach(bytes: Uint8Array, dictionary: ReachDictionary): ReachEntry[] {
  const entries: ReachEntry[] = [];
  scanReach(bytes, (p, c, g, flags) => {
    const principal = dictionary.principals[p];
    const capability = dictionary.capabilities[c];
    const grants = dictionary.grants[g];
    if (!principal || capability === undefined || !grants)
      throw new Error("A stored reach names a number its dictionary does not hold.");
    entries.push([
      principal[0],
      principal[1],
      capability,
      flags & FLAG_IN_ACCOUNT ? 1 : 0,
      flags & FLAG_CONDITIONAL ? 1 : 0,
      grants,
    ]);
  });
  return entries;
}

/**
 * Each entry of `ReachWriter`'s bytes by number, and where its bytes are, without naming them
 * or making an object per entry (an event step reads every entry of the resources it patches).
 */
export function scanReach(
  bytes: Uint8Array,
  entry: (
    principal: number,
    capability: number,
    grants: number,
    flags: number,
    start: number,
    end: number,
  ) => void,
): void {
  // The varints are read inline (no closure per entry): an event step scans every entry of
  // the resources it patches, 3 M of them on the large account.
  const n = bytes.length;
  let at = 0;
  while (at < n) {
    const start = at;
    let byte = bytes[at++] as number;
    let principal = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80 && at < n; scale *= 0x80) {
      byte = bytes[at++] as number;
      principal += (byte & 0x7f) * scale;
    }
    if (byte >= 0x80 || at >= n) throw new Error("A stored reach ends inside an entry.");
    byte = bytes[at++] as number;
    let capability = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80 && at < n; scale *= 0x80) {
      byte = bytes[at++] as number;
      capability += (byte & 0x7f) * scale;
    }
    if (byte >= 0x80 || at >= n) throw new Error("A stored reach ends inside an entry.");
    byte = bytes[at++] as number;
    let grants = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80 && at < n; scale *= 0x80) {
      byte = bytes[at++] as number;
      grants += (byte & 0x7f) * scale;
    }
    if (byte >= 0x80 || at >= n) throw new Error("A stored reach ends inside an entry.");
    const flags = bytes[at++] as number;
    entry(principal, capability, grants, flags, start, at);
  }
}

export const isInAccount = (flags: number) => (flags & FLAG_IN_ACCOUNT) !== 0;
export const isConditional = (flags: number) => (flags & FLAG_CONDITIONAL) !== 0;
