import {
  GetBucketLocationCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  paginateListBuckets,
} from "@aws-sdk/client-s3";
import { mapConcurrent } from "@sightline/domain";
import { type CollectContext, readOrWarn } from "./collect-context.ts";
import type { BucketMetadata } from "./collection-types.ts";
import { parseJsonDocument } from "./plain-json.ts";

export interface CollectedBuckets {
  /** Bucket policies by bucket ARN. */
  readonly policies: Record<string, unknown>;
  readonly buckets: Record<string, BucketMetadata>;
}

/** Every bucket the account owns, with its region, policy and tags. */
export async function readBuckets(ctx: CollectContext): Promise<CollectedBuckets> {
  const names = await readOrWarn(
    ctx,
    {
      action: "s3:ListAllMyBuckets",
      target: `account ${ctx.accountId}`,
      kind: "listing-unreadable",
      consequence: "No S3 bucket was analysed",
    },
    async () => {
      const found: string[] = [];
      const home = ctx.clients.s3(ctx.clients.homeRegion);
      for await (const page of paginateListBuckets({ client: home }, {})) {
        for (const bucket of page.Buckets ?? []) if (bucket.Name) found.push(bucket.Name);
      }
      return found;
    },
  );
  const read = await mapConcurrent(names ?? [], ctx.concurrency, (name) => readBucket(ctx, name));
  const collected: CollectedBuckets = { policies: {}, buckets: {} };
  for (const { arn, metadata, policy } of read) {
    collected.buckets[arn] = metadata;
    if (policy !== undefined) collected.policies[arn] = policy;
  }
  return collected;
}

/** One bucket's region, policy and tags; `knownRegion` spares `GetBucketLocation`. */
export async function readBucket(ctx: CollectContext, name: string, knownRegion?: string) {
  const arn = `arn:${ctx.partition}:s3:::${name}`;
  const base = { target: arn, kind: "resource-unreadable" as const };
  const region =
    knownRegion ??
    (await readOrWarn(
      ctx,
      { ...base, action: "s3:GetBucketLocation", consequence: "The bucket's region is unknown" },
      async () => {
        const answer = await ctx.clients
          .s3(ctx.clients.homeRegion)
          .send(new GetBucketLocationCommand({ Bucket: name }));
        return regionOfLocation(answer.LocationConstraint, ctx.clients.homeRegion);
      },
    ));
  const s3 = ctx.clients.s3(region ?? ctx.clients.homeRegion);
  const policyText = await readOrWarn(
    ctx,
    {
      ...base,
      action: "s3:GetBucketPolicy",
      absentCodes: ["NoSuchBucketPolicy"],
      consequence: "The bucket policy was not analysed",
    },
    async () => (await s3.send(new GetBucketPolicyCommand({ Bucket: name }))).Policy,
  );
  const tagSet = await readOrWarn(
    ctx,
    {
      ...base,
      action: "s3:GetBucketTagging",
      absentCodes: ["NoSuchTagSet"],
      consequence: "The bucket's tags are missing",
    },
    async () => (await s3.send(new GetBucketTaggingCommand({ Bucket: name }))).TagSet,
  );
  const tags = Object.fromEntries((tagSet ?? []).map((tag) => [tag.Key ?? "", tag.Value ?? ""]));
  const metadata: BucketMetadata = { name, ...(region ? { region } : {}), tags };
  const policy = policyText === undefined ? undefined : parseJsonDocument(policyText);
  return { arn, metadata, policy };
}

/** `GetBucketLocation` answers nothing for us-east-1 and `EU` for the oldest eu-west-1 buckets. */
export function regionOfLocation(constraint: string | undefined, homeRegion: string): string {
  if (!constraint) return homeRegion;
  return constraint === "EU" ? "eu-west-1" : constraint;
}
