import { DescribeRegionsCommand } from "@aws-sdk/client-ec2";
import { type CollectContext, readOrWarn } from "./collect-context.ts";

/**
 * The account's enabled regions, by `ec2:DescribeRegions` (without `AllRegions` it lists only
 * regions enabled for the account). Chosen over `account:ListRegions` because EC2 answers in
 * every partition and read-only roles commonly allow it. Refused: the home region alone.
 */
export async function listEnabledRegions(ctx: CollectContext): Promise<string[]> {
  const home = ctx.clients.homeRegion;
  const regions = await readOrWarn(
    ctx,
    {
      action: "ec2:DescribeRegions",
      target: `account ${ctx.accountId}`,
      kind: "listing-unreadable",
      consequence: `Only KMS keys in ${home} were read`,
    },
    async () => {
      const answer = await ctx.clients.ec2.send(new DescribeRegionsCommand({}));
      return (answer.Regions ?? []).flatMap((region) => region.RegionName ?? []);
    },
  );
  return regions && regions.length > 0 ? regions.sort() : [home];
}
