import type { AccountAnalysis, GrantSource } from "@sightline/engine";
import { findWellKnownTags } from "@sightline/reports";
import { grantNames, grantText } from "./grant-names.ts";
import { type ReachNumbering, ReachWriter } from "./reach-encoding.ts";
import type { PrincipalRecord, ResourceRecord } from "./result-records.ts";

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

/** A principal as stored: its columns, and the rest as JSON text. */
export interface EncodedPrincipal {
  head: Omit<PrincipalRecord, "access">;
  json: string;
}

/**
 * The engine's principals, each with its access as JSON text, in the order the access rows come
 * (a principal's rows are together; AWS and Azure order principals differently), then the
 * principals without access.
 */
export function* principalTexts(
  analysis: AccountAnalysis,
  details: (arn: string) => Pick<PrincipalRecord, "lastUsed" | "credentials">,
): Generator<EncodedPrincipal> {
  const rows = new Map(analysis.principals.map((row) => [row.principalArn, row]));
  const encoded = (arn: string, access: EntryText): EncodedPrincipal | undefined => {
    const row = rows.get(arn);
    if (!row) return undefined;
    rows.delete(arn);
    const head = {
      arn,
      name: row.principalName,
      type: row.principalType,
      iamAdmin: row.iamAdmin,
      iamAdminGrantedBy: grantNames(row.iamAdminGrantedBy),
      ...details(arn),
    };
    const rest = JSON.stringify({ iamAdminGrantedBy: head.iamAdminGrantedBy }).slice(0, -1);
    return { head, json: `${rest},${access.json("access")}}` };
  };
  let arn: string | undefined;
  let access = new EntryText();
  for (const row of analysis.principalAccessSummaries()) {
    if (row.principalArn !== arn) {
      const found = arn === undefined ? undefined : encoded(arn, access);
      if (found) yield found;
      arn = row.principalArn;
      access = new EntryText();
    }
    access.add(
      `${quoted(row.service)},${quoted(row.capability)},${quoted(row.resourceArn)},${row.conditional ? 1 : 0}`,
      row.grantedBy,
    );
  }
  const last = arn === undefined ? undefined : encoded(arn, access);
  if (last) yield last;
  for (const rest of [...rows.keys()]) {
    const found = encoded(rest, new EntryText());
    if (found) yield found;
  }
}

/** Who reaches a resource, as the findings need it: holders of risky capabilities, outsiders. */
export interface ReachSummary {
  /** Principals (ARNs, or their numbers in a `ReachNumbering`) per risky capability. */
  holders: Map<string, Set<string | number>>;
  /** Principals outside the account, with their type and capabilities. */
  outside: Map<string, { type: string; capabilities: Set<string> }>;
}

const RISKY = new Set(["administer-resource", "write-data", "delete-data"]);

export function addToSummary(
  summary: ReachSummary,
  principal: string,
  type: string,
  capability: string,
  inAccount: boolean,
  principalKey: string | number = principal,
): void {
  if (RISKY.has(capability)) {
    const set = summary.holders.get(capability) ?? new Set<string | number>();
    summary.holders.set(capability, set.add(principalKey));
  }
  if (!inAccount) {
    const entry = summary.outside.get(principal) ?? { type, capabilities: new Set<string>() };
    entry.capabilities.add(capability);
    summary.outside.set(principal, entry);
  }
}

/** A resource as stored: its columns, its service and tags as JSON, and who reaches it. */
export interface EncodedResource {
  head: Omit<ResourceRecord, "reach">;
  /** `{"service":…,"tags":…}` */
  headerJson: string;
  /** Who reaches it (`ReachWriter`), numbered after the analysis's `ReachNumbering`. */
  reach: Uint8Array;
  /** The JSON of `headerJson` with the entries from outside the account, by name. */
  outsideJson: string;
  summary: ReachSummary;
}

/**
 * The engine's resources, each with who reaches it, in the order the access rows come, then
 * those nobody reaches; `extra` adds collected resources the engine has no row of. `numbering`
 * numbers the reach; its dictionary is complete once the last resource is read.
 */
export function* encodedResources(
  analysis: AccountAnalysis,
  numbering: ReachNumbering,
  details: (arn: string) => { name: string; tags: Readonly<Record<string, string>> },
  extra: Iterable<{ resourceArn: string; resourceType: string; service: string }> = [],
): Generator<EncodedResource> {
  const rows = new Map<string, { resourceType: string; service: string }>();
  for (const row of analysis.resources) rows.set(row.resourceArn, row);
  for (const row of extra) if (!rows.has(row.resourceArn)) rows.set(row.resourceArn, row);
  const encoded = (
    arn: string,
    reach: ReachWriter,
    outside: EntryText,
    summary: ReachSummary,
  ): EncodedResource | undefined => {
    const row = rows.get(arn);
    if (!row) return undefined;
    rows.delete(arn);
    const { name, tags } = details(arn);
    const head = {
      arn,
      type: row.resourceType,
      service: row.service,
      name,
      tags,
      confidentiality: confidentialityOf(tags),
    };
    const headerJson = JSON.stringify({ service: head.service, tags });
    return {
      head,
      headerJson,
      reach: reach.bytes(),
      outsideJson: `${headerJson.slice(0, -1)},${outside.json("reach")}}`,
      summary,
    };
  };
  const empty = (): ReachSummary => ({ holders: new Map(), outside: new Map() });
  let arn: string | undefined;
  let reach = new ReachWriter();
  let outside = new EntryText();
  let summary = empty();
  for (const row of analysis.resourceAccessSummaries()) {
    if (row.resourceArn !== arn) {
      const found = arn === undefined ? undefined : encoded(arn, reach, outside, summary);
      if (found) yield found;
      arn = row.resourceArn;
      reach = new ReachWriter();
      outside = new EntryText();
      summary = empty();
    }
    const principal = reach.add(numbering, row);
    if (!row.inAccount)
      outside.add(
        `${quoted(row.principal)},${quoted(row.principalType)},${quoted(row.capability)},0,${row.conditional ? 1 : 0}`,
        row.grantedBy,
      );
    addToSummary(
      summary,
      row.principal,
      row.principalType,
      row.capability,
      row.inAccount,
      principal,
    );
  }
  const last = arn === undefined ? undefined : encoded(arn, reach, outside, summary);
  if (last) yield last;
  for (const rest of [...rows.keys()]) {
    const found = encoded(rest, new ReachWriter(), new EntryText(), empty());
    if (found) yield found;
  }
}

/** The tag the reports put in `resource_tag_confidentiality` (`Confidentiality`, any case or spelling). */
function confidentialityOf(tags: Readonly<Record<string, string>>): string {
  return findWellKnownTags(tags).confidentiality ?? "";
}
