import type { StoredPrincipalResult, StoredResourceResult } from "@sightline/db";
import type {
  AccountAnalysis,
  GrantSource,
  PrincipalAccessSummary,
  PrincipalRow,
  ResourceAccessSummary,
} from "@sightline/engine";
import { findWellKnownTags } from "@sightline/reports";
import { grantNames, grantText } from "./grant-names.ts";
import { type ReachNumberer, ReachNumbering, ReachWriter } from "./reach-encoding.ts";
import {
  encodePrincipal,
  encodeResource,
  type PrincipalRecord,
  type ResourceRecord,
} from "./result-records.ts";

/**
 * How the store's records are written, row by row from the engine's rows: each principal's access
 * as JSON text, the granting policies named once per record; each resource's reach as numbers
 * (`reach-encoding.ts`), and the part of it from outside the account as JSON text.
 */

/** A string as JSON, remembered: services, capabilities and resource patterns repeat. */
const quotedMemo = new Map<string, string>();
function quoted(text: string): string {
  let json = quotedMemo.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    if (quotedMemo.size >= 50_000) quotedMemo.clear();
    quotedMemo.set(text, json);
  }
  return json;
}

/**
 * One record's entries as JSON text, built row by row without an object per row: each entry an
 * array of its values and the index of its granting policies in the record's `grants` (a list
 * of policies is named once per record, not once per row). The entries keep the engine's order,
 * which is the same for the same input: equal access gives equal bytes.
 */
class EntryText {
  readonly #grants = new Map<string, number>();
  readonly #grantTexts: string[] = [];
  readonly #entries: string[] = [];

  add(values: string, grantedBy: readonly GrantSource[] | undefined): void {
    const text = grantText(grantedBy);
    let index = this.#grants.get(text);
    if (index === undefined) {
      index = this.#grantTexts.length;
      this.#grants.set(text, index);
      this.#grantTexts.push(text);
    }
    this.#entries.push(`[${values},${index}]`);
  }

  json(field: string): string {
    return `"grants":[${this.#grantTexts.join(",")}],"${field}":[${this.#entries.join(",")}]`;
  }
}

/** A principal as stored, with its record's head for the findings. */
export interface RecordedPrincipal {
  head: Omit<PrincipalRecord, "access">;
  stored: StoredPrincipalResult;
}

/**
 * Records made from rows that come grouped by a key (an ARN: a principal's or a resource's rows
 * are together): a group's rows go into a fresh accumulator, and its record is made when the next
 * group starts. `finish` makes the last one, then those of the listed keys no row named. A key
 * the analysis does not list makes no record, and its rows go to none.
 */
abstract class RecordsByKey<Listed, Acc, Out> {
  readonly recorded: Out[] = [];
  readonly #listed: Map<string, Listed>;
  #key: string | undefined;
  #acc: Acc | undefined;

  constructor(listed: Map<string, Listed>) {
    this.#listed = listed;
  }

  protected abstract fresh(): Acc;
  protected abstract make(key: string, listed: Listed, acc: Acc): Out;

  /** The accumulator of `key`'s group, closing the group before it. */
  protected group(key: string): Acc {
    if (key !== this.#key) {
      this.#close();
      this.#key = key;
    }
    this.#acc ??= this.fresh();
    return this.#acc;
  }

  finish(): Out[] {
    this.#close();
    for (const key of [...this.#listed.keys()]) {
      this.#key = key;
      this.#close();
    }
    return this.recorded;
  }

  #close(): void {
    const [key, acc] = [this.#key, this.#acc];
    this.#key = undefined;
    this.#acc = undefined;
    const listed = key === undefined ? undefined : this.#listed.get(key);
    if (key === undefined || listed === undefined) return;
    this.#listed.delete(key);
    this.recorded.push(this.make(key, listed, acc ?? this.fresh()));
  }
}

/**
 * The engine's principals as the store keeps them, built from the access rows as they come (AWS
 * and Azure order principals differently): each principal's access as JSON text, deflated as soon
 * as its last row has passed; `finish` adds the principals without access.
 */
export class PrincipalRecords extends RecordsByKey<PrincipalRow, EntryText, RecordedPrincipal> {
  readonly #details: (arn: string) => Pick<PrincipalRecord, "lastUsed" | "credentials">;

  constructor(
    analysis: AccountAnalysis,
    details: (arn: string) => Pick<PrincipalRecord, "lastUsed" | "credentials">,
  ) {
    super(new Map(analysis.principals.map((row) => [row.principalArn, row])));
    this.#details = details;
  }

  add(row: PrincipalAccessSummary): void {
    this.group(row.principalArn).add(
      `${quoted(row.service)},${quoted(row.capability)},${quoted(row.resourceArn)},${row.conditional ? 1 : 0}`,
      row.grantedBy,
    );
  }

  protected fresh(): EntryText {
    return new EntryText();
  }

  protected make(arn: string, row: PrincipalRow, access: EntryText): RecordedPrincipal {
    const head = {
      arn,
      name: row.principalName,
      type: row.principalType,
      iamAdmin: row.iamAdmin,
      iamAdminGrantedBy: grantNames(row.iamAdminGrantedBy),
      ...this.#details(arn),
    };
    const rest = JSON.stringify({ iamAdminGrantedBy: head.iamAdminGrantedBy }).slice(0, -1);
    const json = `${rest},${access.json("access")}}`;
    return { head, stored: encodePrincipal(head, json) };
  }
}

/** Who reaches a resource, as the findings need it: holders of risky capabilities, outsiders. */
export interface ReachSummary {
  /** How many principals hold each risky capability (administer, write, delete). */
  holders: Map<string, number>;
  /** Principals outside the account, with their type and capabilities. */
  outside: Map<string, { type: string; capabilities: Set<string> }>;
}

/** The capabilities whose holders the findings count. */
export const RISKY = new Set(["administer-resource", "write-data", "delete-data"]);

/** Sums up who reaches a resource, a row at a time; `principal` tells principals apart. */
export class ReachSummer {
  readonly #holders = new Map<string, Set<string | number>>();
  readonly #outside: ReachSummary["outside"] = new Map();

  add(
    principal: string,
    type: string,
    capability: string,
    inAccount: boolean,
    key: string | number = principal,
  ): void {
    if (RISKY.has(capability)) {
      const set = this.#holders.get(capability) ?? new Set<string | number>();
      this.#holders.set(capability, set.add(key));
    }
    if (!inAccount) {
      const entry = this.#outside.get(principal) ?? { type, capabilities: new Set<string>() };
      entry.capabilities.add(capability);
      this.#outside.set(principal, entry);
    }
  }

  summary(): ReachSummary {
    const holders = new Map<string, number>();
    for (const [capability, set] of this.#holders) holders.set(capability, set.size);
    return { holders, outside: this.#outside };
  }
}

/** A resource as stored, with its record's head and who reaches it for the findings. */
export interface RecordedResource {
  head: Omit<ResourceRecord, "reach">;
  summary: ReachSummary;
  stored: StoredResourceResult;
}

/** What a resource's rows accumulate into. */
interface ResourceRows {
  reach: ReachWriter;
  outside: EntryText;
  summer: ReachSummer;
}

/**
 * The engine's resources as the store keeps them, built from the access rows as they come:
 * who reaches each as numbers (`reach-encoding.ts`, numbered after `numbering`, whose dictionary
 * is complete once `finish` returns) and the part from outside the account as JSON text.
 * `finish` adds the resources nobody reaches, and `extra`: collected resources the engine has
 * no row of.
 */
export class ResourceRecords extends RecordsByKey<
  { resourceType: string; service: string },
  ResourceRows,
  RecordedResource
> {
  readonly numbering: ReachNumberer;
  readonly #details: (arn: string) => { name: string; tags: Readonly<Record<string, string>> };

  constructor(
    analysis: AccountAnalysis,
    details: (arn: string) => { name: string; tags: Readonly<Record<string, string>> },
    extra: Iterable<{ resourceArn: string; resourceType: string; service: string }> = [],
    numbering: ReachNumberer = new ReachNumbering(),
  ) {
    const listed = new Map<string, { resourceType: string; service: string }>();
    for (const row of analysis.resources) listed.set(row.resourceArn, row);
    for (const row of extra) if (!listed.has(row.resourceArn)) listed.set(row.resourceArn, row);
    super(listed);
    this.#details = details;
    this.numbering = numbering;
  }

  add(row: ResourceAccessSummary): void {
    const rows = this.group(row.resourceArn);
    const principal = rows.reach.add(this.numbering, row);
    if (!row.inAccount)
      rows.outside.add(
        `${quoted(row.principal)},${quoted(row.principalType)},${quoted(row.capability)},0,${row.conditional ? 1 : 0}`,
        row.grantedBy,
      );
    rows.summer.add(row.principal, row.principalType, row.capability, row.inAccount, principal);
  }

  protected fresh(): ResourceRows {
    return { reach: new ReachWriter(), outside: new EntryText(), summer: new ReachSummer() };
  }

  protected make(
    arn: string,
    row: { resourceType: string; service: string },
    { reach, outside, summer }: ResourceRows,
  ): RecordedResource {
    const { name, tags } = this.#details(arn);
    const head = {
      arn,
      type: row.resourceType,
      service: row.service,
      name,
      tags,
      confidentiality: confidentialityOf(tags),
    };
    const headerJson = JSON.stringify({ service: head.service, tags });
    const outsideJson = `${headerJson.slice(0, -1)},${outside.json("reach")}}`;
    const summary = summer.summary();
    return {
      head,
      summary,
      stored: encodeResource(head, headerJson, reach.bytes(), outsideJson, summary.holders),
    };
  }
}

/** The tag the reports put in `resource_tag_confidentiality` (`Confidentiality`, any case or spelling). */
function confidentialityOf(tags: Readonly<Record<string, string>>): string {
  return findWellKnownTags(tags).confidentiality ?? "";
}
