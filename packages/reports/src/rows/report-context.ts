import { parseArn } from "@sightline/engine/arn";
import { RecurringLookup } from "./recurring-lookup.ts";
import type { PrincipalMetadata, ReportInput } from "./report-metadata.ts";
import { findWellKnownTags, type WellKnownTag } from "./well-known-tags.ts";

type Tags = Readonly<Record<string, string>>;

export interface TaggedThing {
  readonly name: string;
  /** The same object for every lookup of one ARN, so writers encode it once. */
  readonly tags: Tags;
  readonly wellKnownTags: Readonly<Partial<Record<WellKnownTag, string>>>;
}

/** Lookups the row builders share, built once per report run. */
export interface ReportContext {
  readonly analysisTime: Date;
  /** A principal of the analysis, or undefined for one outside it. */
  principal(arn: string): TaggedThing | undefined;
  principalMetadata(arn: string): PrincipalMetadata | undefined;
  /**
   * Any resource: its collected name and tags; else, for a role of the analysis, the role's;
   * else the name its ARN gives and no tags.
   */
  resource(arn: string): TaggedThing;
}

const NO_TAGS: Tags = Object.freeze({});

/**
 * The last element of an ARN's resource (`role/path/deployer` → `deployer`,
 * `arn:aws:s3:::reports` → `reports`); anything that is not an ARN is its own name.
 */
export function nameFromArn(text: string): string {
  const resource = parseArn(text)?.resource;
  if (resource === undefined) return text;
  return resource.slice(Math.max(resource.lastIndexOf("/"), resource.lastIndexOf(":")) + 1);
}

export function createReportContext(input: ReportInput): ReportContext {
  const principals = new Map<string, TaggedThing>();
  for (const row of input.principals) {
    principals.set(row.principalArn, {
      name: row.principalName,
      tags: row.tags,
      wellKnownTags: findWellKnownTags(row.tags),
    });
  }
  const resources = new Map<string, TaggedThing>();
  // The rows come grouped by principal (principal access) or by resource (resource access): the
  // last answer is checked before the map, whose look-ups cost memory latency (~150 ns) per row.
  // A resource's rows name its principals in runs that recur (`RecurringLookup`).
  const principalOf = new RecurringLookup((arn) => principals.get(arn));
  let lastPrincipalArn: string | undefined;
  let lastPrincipal: TaggedThing | undefined;
  let lastResourceArn: string | undefined;
  let lastResource: TaggedThing | undefined;
  return {
    analysisTime: input.analysisTime,
    principal(arn) {
      if (arn !== lastPrincipalArn) {
        lastPrincipalArn = arn;
        lastPrincipal = principalOf.get(arn);
      }
      return lastPrincipal;
    },
    principalMetadata: (arn) => input.principalMetadata?.get(arn),
    resource(arn) {
      if (arn === lastResourceArn && lastResource) return lastResource;
      let found = resources.get(arn);
      if (found === undefined) {
        const metadata = input.resourceMetadata?.get(arn);
        const principal = principals.get(arn);
        const tags = metadata?.tags ?? principal?.tags ?? NO_TAGS;
        found = {
          name: metadata?.name ?? principal?.name ?? nameFromArn(arn),
          tags,
          wellKnownTags: findWellKnownTags(tags),
        };
        resources.set(arn, found);
      }
      lastResourceArn = arn;
      lastResource = found;
      return found;
    },
  };
}
