import {
  GetPolicyCommand,
  GetPolicyVersionCommand,
  type IAMClient,
  paginateListPolicyVersions,
} from "@aws-sdk/client-iam";
import { toPlainJson } from "../collect/plain-json.ts";
import type { GaadEntry } from "./event-reads.ts";
import { GONE, incrementalCall } from "./incremental-call.ts";

/** The members of GAAD's `Policies` entry that `GetPolicy` answers (it adds `Tags`). */
const GAAD_FIELDS = [
  "PolicyName",
  "PolicyId",
  "Arn",
  "Path",
  "DefaultVersionId",
  "AttachmentCount",
  "PermissionsBoundaryUsageCount",
  "IsAttachable",
  "Description",
  "CreateDate",
  "UpdateDate",
];

/**
 * A managed policy as GAAD lists it in `Policies`: its summary and every version with its
 * document (`ListPolicyVersions`, then `GetPolicyVersion` each, five at most). `null` when
 * the policy was deleted.
 */
export async function readManagedPolicy(iam: IAMClient, arn: string): Promise<GaadEntry | null> {
  const policy = await incrementalCall("iam:GetPolicy", arn, async () => {
    return (await iam.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy;
  });
  if (policy === GONE || policy === undefined) return null;
  const listed = await incrementalCall("iam:ListPolicyVersions", arn, async () => {
    const ids: string[] = [];
    for await (const page of paginateListPolicyVersions({ client: iam }, { PolicyArn: arn })) {
      for (const version of page.Versions ?? []) if (version.VersionId) ids.push(version.VersionId);
    }
    return ids;
  });
  if (listed === GONE) return null;
  const versions: unknown[] = [];
  for (const versionId of listed) {
    const version = await incrementalCall("iam:GetPolicyVersion", arn, async () => {
      const input = { PolicyArn: arn, VersionId: versionId };
      return (await iam.send(new GetPolicyVersionCommand(input))).PolicyVersion;
    });
    // A version deleted between the listing and the read is no longer the policy's.
    if (version !== GONE && version !== undefined) versions.push(version);
  }
  const summary = toPlainJson(policy) as Record<string, unknown>;
  const entry: GaadEntry = {};
  for (const field of GAAD_FIELDS) if (summary[field] !== undefined) entry[field] = summary[field];
  entry.PolicyVersionList = toPlainJson(versions);
  return entry;
}
