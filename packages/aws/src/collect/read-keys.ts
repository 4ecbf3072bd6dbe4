import {
  DescribeKeyCommand,
  GetKeyPolicyCommand,
  type KMSClient,
  paginateListAliases,
  paginateListKeys,
  paginateListResourceTags,
} from "@aws-sdk/client-kms";
import { mapConcurrent } from "@sightline/domain";
import { type CollectContext, readOrWarn } from "./collect-context.ts";
import type { KeyMetadata } from "./collection-types.ts";
import { parseJsonDocument } from "./plain-json.ts";

export interface CollectedKeys {
  /** Key policies by key ARN. */
  readonly policies: Record<string, unknown>;
  readonly keys: Record<string, KeyMetadata>;
  /**
   * ARNs of the AWS managed keys (`KeyManager` `AWS`): not analysed as resources, but listed
   * so that the engine knows AWS refuses customers' changes to them (snapshot `awsManagedKeys`).
   */
  readonly awsManagedKeys: string[];
  /**
   * ARNs of customer managed keys whose key policy Sightline was refused: the engine answers
   * their KMS access as conditional (snapshot `unreadableKeyPolicies`) rather than assume the
   * default key policy.
   */
  readonly unreadableKeyPolicies: string[];
}

/** Keys that can no longer be used, whose access is moot. */
const GONE_STATES = new Set(["PendingDeletion", "PendingReplicaDeletion"]);

/**
 * The customer managed KMS keys of the regions, with key policy, aliases and tags. AWS managed
 * keys are left out: their policies are AWS's, identical everywhere, and allow use only
 * through the owning service; only their ARNs are listed. Keys pending deletion are left out too. Regions are read side by
 * side, since KMS quotas are per region.
 */
export async function readKeys(
  ctx: CollectContext,
  regions: readonly string[],
): Promise<CollectedKeys> {
  const perRegion = await mapConcurrent(regions, ctx.concurrency, (region) =>
    readRegionKeys(ctx, region),
  );
  const collected: CollectedKeys = {
    policies: {},
    keys: {},
    awsManagedKeys: [],
    unreadableKeyPolicies: [],
  };
  for (const key of perRegion.flat()) {
    if (key.awsManaged) {
      collected.awsManagedKeys.push(key.arn);
      continue;
    }
    collected.keys[key.arn] = key.metadata;
    if (key.policy !== undefined) collected.policies[key.arn] = key.policy;
    else if (key.policyUnread) collected.unreadableKeyPolicies.push(key.arn);
  }
  return collected;
}

async function readRegionKeys(ctx: CollectContext, region: string) {
  const kms = ctx.clients.kms(region);
  const listing = {
    kind: "listing-unreadable" as const,
    target: `KMS keys in ${region}`,
    consequence: `No KMS key of ${region} was analysed`,
  };
  const keyIds = await readOrWarn(ctx, { ...listing, action: "kms:ListKeys" }, async () => {
    const ids: string[] = [];
    for await (const page of paginateListKeys({ client: kms }, {})) {
      for (const key of page.Keys ?? []) if (key.KeyId) ids.push(key.KeyId);
    }
    return ids;
  });
  if (!keyIds || keyIds.length === 0) return [];
  const aliases = await readAliases(ctx, kms, region);
  const keys = await mapConcurrent(keyIds, ctx.concurrency, (keyId) =>
    readKey(ctx, kms, region, keyId, aliases.get(keyId) ?? []),
  );
  return keys.filter((key) => key !== undefined);
}

/** The aliases of a region's keys (of one key with `keyId`), by key ID. */
export async function readAliases(
  ctx: CollectContext,
  kms: KMSClient,
  region: string,
  keyId?: string,
) {
  const byKey = new Map<string, string[]>();
  await readOrWarn(
    ctx,
    {
      action: "kms:ListAliases",
      target: `KMS aliases in ${region}`,
      kind: "listing-unreadable",
      consequence: "Keys are reported without aliases",
    },
    async () => {
      for await (const page of paginateListAliases(
        { client: kms },
        keyId ? { KeyId: keyId } : {},
      )) {
        for (const alias of page.Aliases ?? []) {
          if (!alias.TargetKeyId || !alias.AliasName) continue;
          byKey.set(alias.TargetKeyId, [...(byKey.get(alias.TargetKeyId) ?? []), alias.AliasName]);
        }
      }
    },
  );
  return byKey;
}

/**
 * One key: undefined when it is pending deletion, unknown (`NotFoundException`: deleted since it
 * was listed or named) or could not be described (a warning then says so).
 */
export async function readKey(
  ctx: CollectContext,
  kms: KMSClient,
  region: string,
  keyId: string,
  aliases: string[],
) {
  const arn = `arn:${ctx.partition}:kms:${region}:${ctx.accountId}:key/${keyId}`;
  const base = { target: arn, kind: "resource-unreadable" as const };
  const describe = {
    ...base,
    action: "kms:DescribeKey",
    absentCodes: ["NotFoundException"],
    consequence: "The key was not analysed",
  };
  const described = await readOrWarn(ctx, describe, async () => {
    return (await kms.send(new DescribeKeyCommand({ KeyId: keyId }))).KeyMetadata;
  });
  if (!described) return undefined;
  if (described.KeyManager === "AWS")
    return { arn: described.Arn ?? arn, awsManaged: true as const };
  if (described.KeyState && GONE_STATES.has(described.KeyState)) return undefined;
  const policyText = await readOrWarn(
    ctx,
    {
      ...base,
      action: "kms:GetKeyPolicy",
      consequence: "The key's KMS access is reported conditional: its key policy is unknown",
    },
    async () => (await kms.send(new GetKeyPolicyCommand({ KeyId: keyId }))).Policy,
  );
  const tags = await readOrWarn(
    ctx,
    { ...base, action: "kms:ListResourceTags", consequence: "The key's tags are missing" },
    async () => {
      const found: Record<string, string> = {};
      for await (const page of paginateListResourceTags({ client: kms }, { KeyId: keyId })) {
        for (const tag of page.Tags ?? []) if (tag.TagKey) found[tag.TagKey] = tag.TagValue ?? "";
      }
      return found;
    },
  );
  const metadata: KeyMetadata = {
    keyId,
    region,
    aliases,
    ...(described.KeyState ? { state: described.KeyState } : {}),
    tags: tags ?? {},
  };
  const policy = policyText === undefined ? undefined : parseJsonDocument(policyText);
  return {
    arn: described.Arn ?? arn,
    awsManaged: false as const,
    metadata,
    policy,
    policyUnread: policyText === undefined,
  };
}
