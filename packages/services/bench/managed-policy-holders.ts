import type { FakeAccountModel } from "@sightline/aws-fake";
import { createAccountModel } from "@sightline/engine";

/** The customer-managed policy whose holders (through groups too) come nearest `count`. */
export function policyHeldByNearly(
  model: FakeAccountModel,
  count: number,
): { arn: string; holders: number } {
  const account = createAccountModel({
    accountId: model.accountId,
    authorizationDetails: model.authorizationDetails,
  });
  const holders = new Map<string, number>();
  for (const principal of account.principals.values())
    for (const policy of principal.identityPolicies)
      if (policy.id.includes(":policy/") && !policy.id.includes(":iam::aws:"))
        holders.set(policy.id, (holders.get(policy.id) ?? 0) + 1);
  const [arn, held] = [...holders].sort(
    (a, b) => Math.abs(a[1] - count) - Math.abs(b[1] - count),
  )[0] ?? ["", 0];
  return { arn, holders: held };
}
