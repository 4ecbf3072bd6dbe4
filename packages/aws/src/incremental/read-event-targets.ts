import { GetBucketLocationCommand } from "@aws-sdk/client-s3";
import { mapConcurrent } from "@sightline/domain";
import { classifyAwsError } from "../classify-aws-error.ts";
import type { CollectContext } from "../collect/collect-context.ts";
import { createAccountClients } from "../collect/create-account-clients.ts";
import { readBucket, regionOfLocation } from "../collect/read-buckets.ts";
import { readAliases, readKey } from "../collect/read-keys.ts";
import { readOrganization } from "../collect/read-organization.ts";
import type {
  BucketRead,
  EventReads,
  GaadEntry,
  KeyRead,
  ReadEventTargetsInput,
  UserRead,
} from "./event-reads.ts";
import { readManagedPolicy } from "./read-managed-policy.ts";
import { readPrincipal } from "./read-principal.ts";
import { readUserCredentials } from "./read-user-credentials.ts";
import { sortTargets } from "./sort-targets.ts";
import { usedPolicyArns } from "./used-policies.ts";

/**
 * Reads back only what the events' targets name: each principal with its policies, groups,
 * boundary and tags (a user's keys and login profile when asked), managed policies, buckets,
 * keys and the organisation, as the full collection would read them. A deleted entity is a
 * `null`, not an error. A role made from an older template fails `INCREMENTAL_READ_DENIED`.
 */
export async function readEventTargets(input: ReadEventTargetsInput): Promise<EventReads> {
  const startedAt = new Date().toISOString();
  const { accountId, partition } = input;
  const clients = createAccountClients(input.credentials, partition, input.clientOptions);
  const ctx: CollectContext = {
    clients,
    accountId,
    partition,
    concurrency: input.concurrency ?? 8,
    warnings: [],
  };
  const wanted = sortTargets(input.targets);
  const arnOf = (kind: string, name: string) =>
    `arn:${partition}:iam::${accountId}:${kind}/${name}`;
  try {
    const users: Record<string, UserRead | null> = {};
    await mapConcurrent([...wanted.users], ctx.concurrency, async ([name, credentials]) => {
      const entry = await readPrincipal(clients.iam, "user", name, arnOf("user", name));
      const read =
        entry && credentials
          ? await readUserCredentials(clients.iam, name, arnOf("user", name), lastUsed(entry))
          : undefined;
      users[name] = entry && {
        entry: withoutPasswordLastUsed(entry),
        ...(read ? { credentials: read } : {}),
      };
    });
    const roles: Record<string, GaadEntry | null> = {};
    const groups: Record<string, GaadEntry | null> = {};
    await mapConcurrent([...wanted.roles], ctx.concurrency, async (name) => {
      roles[name] = await readPrincipal(clients.iam, "role", name, arnOf("role", name));
    });
    await mapConcurrent([...wanted.groups], ctx.concurrency, async (name) => {
      groups[name] = await readPrincipal(clients.iam, "group", name, arnOf("group", name));
    });
    const principals = [
      ...Object.values(users).map((user) => user?.entry),
      ...Object.values(roles),
      ...Object.values(groups),
    ];
    const known = knownPolicies(input.previous?.authorizationDetails);
    for (const arn of usedPolicyArns(principals.filter((entry) => entry != null))) {
      if (!known.has(arn)) wanted.policies.add(arn);
    }
    const policies: Record<string, GaadEntry | null> = {};
    await mapConcurrent([...wanted.policies], ctx.concurrency, async (arn) => {
      policies[arn] = await readManagedPolicy(clients.iam, arn);
    });
    const buckets: Record<string, BucketRead | null> = {};
    await mapConcurrent([...wanted.buckets], ctx.concurrency, async (name) => {
      buckets[`arn:${partition}:s3:::${name}`] = await readBucketTarget(ctx, name);
    });
    const keys: Record<string, KeyRead | null> = {};
    await mapConcurrent([...wanted.keys.values()], ctx.concurrency, async ({ keyId, region }) => {
      const kms = clients.kms(region);
      const aliases = await readAliases(ctx, kms, region, keyId);
      const key = await readKey(ctx, kms, region, keyId, aliases.get(keyId) ?? []);
      const arn = key?.arn ?? `arn:${partition}:kms:${region}:${accountId}:key/${keyId}`;
      keys[arn] = key === undefined ? null : key.awsManaged ? { awsManaged: true } : key;
    });
    const organization = wanted.organization ? { value: await readOrganization(ctx) } : undefined;
    return {
      accountId,
      partition,
      startedAt,
      finishedAt: new Date().toISOString(),
      users,
      roles,
      groups,
      policies,
      buckets,
      keys,
      ...(organization ? { organization } : {}),
      warnings: ctx.warnings,
    };
  } finally {
    clients.destroy();
  }
}

function knownPolicies(details: unknown): Set<string> {
  const policies = (details as { Policies?: { Arn?: unknown }[] } | undefined)?.Policies ?? [];
  return new Set(policies.map((policy) => String(policy.Arn)));
}

const lastUsed = (entry: GaadEntry) =>
  typeof entry.PasswordLastUsed === "string" ? entry.PasswordLastUsed : undefined;
const withoutPasswordLastUsed = ({ PasswordLastUsed: _, ...entry }: GaadEntry) => entry;

/** `null` when S3 no longer knows the bucket; its region, policy and tags otherwise. */
async function readBucketTarget(ctx: CollectContext, name: string): Promise<BucketRead | null> {
  const home = ctx.clients.s3(ctx.clients.homeRegion);
  let region: string | undefined;
  try {
    const answer = await home.send(new GetBucketLocationCommand({ Bucket: name }));
    region = regionOfLocation(answer.LocationConstraint, ctx.clients.homeRegion);
  } catch (error) {
    if (classifyAwsError(error).code === "NoSuchBucket") return null;
    // Anything else the full collection's read words as it would (a warning, or a failure).
  }
  const { metadata, policy } = await readBucket(ctx, name, region);
  return { metadata, ...(policy === undefined ? {} : { policy }) };
}
