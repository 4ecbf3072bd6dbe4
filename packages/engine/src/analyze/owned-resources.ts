import { accountOfArn } from "../arn/parse-arn.ts";
import type { PolicyType } from "../policy/policy-types.ts";
import type { AccountModel, ResourcePolicyRecord } from "../snapshot/account-model.ts";

/**
 * The resources the analysis reports: each resource with a policy of its own (a role with its
 * trust policy), then each bucket the snapshots list without a bucket policy. Within its
 * account identity policies alone reach such a bucket, so it is summarized as a resource
 * whose policy has no statements: the evaluation finds no policy for it, as `authorize` does.
 * So is each KMS key whose key policy could not be read: the evaluation takes that policy as
 * unknown (`unreadableKeyPolicies`), so the key's holders are conditional.
 */
export function ownedResources(model: AccountModel): ResourcePolicyRecord[] {
  const records = [...model.resourcePolicies.values()];
  for (const [bucketArn, accountId] of model.bucketOwners)
    if (!model.resourcePolicies.has(bucketArn))
      records.push(recordWithoutPolicy(bucketArn, accountId));
  for (const keyArn of model.unreadableKeyPolicies)
    records.push(recordWithoutPolicy(keyArn, accountOfArn(keyArn), "kms-key"));
  return records;
}

/** A resource whose policy was not supplied: a policy with no statements stands for it. */
export function recordWithoutPolicy(
  resourceArn: string,
  accountId: string | undefined,
  type: PolicyType = "resource",
): ResourcePolicyRecord {
  return {
    resourceArn,
    accountId,
    policy: { id: resourceArn, name: `no policy of ${resourceArn}`, type, statements: [] },
  };
}
