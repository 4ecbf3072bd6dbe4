import type { ResourceRecord } from "./result-records.ts";

/**
 * A principal or resource as read from the store: its key (ARN), what tells two apart without
 * decoding them, and the record, decoded only when the two differ. 99% of an account's
 * principals are the same from one day to the next: their bytes are compared, not their rows.
 */
export interface StoredItem<T> {
  key: string;
  /** The stored bytes and columns; equal when the records are (deflate is deterministic). */
  sameAs(other: StoredItem<T>): boolean;
  decode(): Promise<T> | T;
  /**
   * Principals: equal access (and what grants admin), whatever their last use and credentials,
   * which change from day to day; then the record without its access is enough.
   */
  sameAccessAs?(other: StoredItem<T>): boolean;
  decodeWithoutAccess?(): Promise<T> | T;
}

/**
 * A stored resource: a resource that is not confidential changes nothing the comparison reports
 * unless who reaches it from outside changes, which is a small part of its entries.
 */
export interface StoredResourceItem extends StoredItem<ResourceRecord> {
  confidentiality: string;
  sameOutsideAs(other: StoredResourceItem): boolean;
  /** The record with only the entries from outside its account. */
  decodeOutside(): Promise<ResourceRecord> | ResourceRecord;
}

/** A resource held in memory as a `StoredResourceItem` (tests). */
export function resourceInMemory(record: ResourceRecord): StoredResourceItem {
  const outside = { ...record, reach: record.reach.filter((entry) => entry[3] === 0) };
  const outsideText = JSON.stringify(outside);
  const item = {
    ...inMemory(record),
    confidentiality: record.confidentiality,
    outsideText,
    sameOutsideAs: (other: StoredResourceItem) =>
      (other as unknown as { outsideText: string }).outsideText === outsideText,
    decodeOutside: () => outside,
  };
  return item;
}

/** A record held in memory as a `StoredItem` (tests, and analyses never stored). */
export function inMemory<T extends { arn: string }>(record: T): StoredItem<T> {
  const text = JSON.stringify(record);
  const item: StoredItem<T> & { text: string } = {
    key: record.arn,
    text,
    sameAs: (other) => (other as typeof item).text === text,
    decode: () => record,
  };
  return item;
}
