import {
  GetAccessKeyLastUsedCommand,
  GetLoginProfileCommand,
  type IAMClient,
  paginateListAccessKeys,
} from "@aws-sdk/client-iam";
import type { AccessKeyUse } from "@sightline/domain";
import type { UserCredentialsRead } from "./event-reads.ts";
import { GONE, incrementalCall } from "./incremental-call.ts";

const NONE: AccessKeyUse = { active: false };
/** What `GetAccessKeyLastUsed` says of a key never used. */
const NOTHING = new Set(["", "N/A"]);

/**
 * A user's login profile and access keys, as the credential report would list them (which IAM
 * regenerates only every four hours): keys oldest first, with their last use. `null` when the
 * user no longer exists.
 */
export async function readUserCredentials(
  iam: IAMClient,
  userName: string,
  arn: string,
  passwordLastUsed: string | undefined,
): Promise<UserCredentialsRead | null> {
  const profile = await incrementalCall("iam:GetLoginProfile", arn, async () => {
    return (await iam.send(new GetLoginProfileCommand({ UserName: userName }))).LoginProfile;
  });
  const keys = await incrementalCall("iam:ListAccessKeys", arn, async () => {
    const found = [];
    for await (const page of paginateListAccessKeys({ client: iam }, { UserName: userName })) {
      found.push(...(page.AccessKeyMetadata ?? []));
    }
    return found;
  });
  if (keys === GONE) return null;
  const ordered = keys.sort(
    (a, b) => (a.CreateDate?.getTime() ?? 0) - (b.CreateDate?.getTime() ?? 0),
  );
  const uses: AccessKeyUse[] = [];
  for (const key of ordered.slice(0, 2)) {
    const id = key.AccessKeyId ?? "";
    const used = await incrementalCall("iam:GetAccessKeyLastUsed", arn, async () => {
      return (await iam.send(new GetAccessKeyLastUsedCommand({ AccessKeyId: id })))
        .AccessKeyLastUsed;
    });
    const last = used === GONE ? undefined : used;
    const region = last?.Region && !NOTHING.has(last.Region) ? last.Region : undefined;
    const service =
      last?.ServiceName && !NOTHING.has(last.ServiceName) ? last.ServiceName : undefined;
    uses.push({
      active: key.Status === "Active",
      ...(key.CreateDate ? { lastRotated: key.CreateDate.toISOString() } : {}),
      ...(last?.LastUsedDate ? { lastUsedDate: last.LastUsedDate.toISOString() } : {}),
      ...(region ? { lastUsedRegion: region } : {}),
      ...(service ? { lastUsedService: service } : {}),
    });
  }
  const passwordEnabled = profile !== GONE && profile !== undefined;
  return {
    passwordEnabled,
    ...(passwordEnabled && profile.CreateDate
      ? { passwordLastChanged: profile.CreateDate.toISOString() }
      : {}),
    ...(passwordLastUsed ? { passwordLastUsed } : {}),
    accessKeys: [uses[0] ?? NONE, uses[1] ?? NONE],
  };
}
