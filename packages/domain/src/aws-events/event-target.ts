/**
 * What one CloudTrail event asks Sightline to read again: an IAM entity, a managed policy, a
 * bucket's policy, a key's policy and state, or the organisation's policies. The event job reads
 * back only these (`@sightline/aws`'s incremental collection) and patches the stored snapshot.
 */
export type AwsEventTarget =
  /** The user's inline and attached policies, groups, boundary, tags; with `credentials`, its access keys and login profile. */
  | { readonly kind: "user"; readonly name: string; readonly credentials?: boolean }
  /** The role's trust policy, inline and attached policies, boundary, tags. */
  | { readonly kind: "role"; readonly name: string }
  /**
   * The group's inline and attached policies (its members are read through their users); with
   * `members`, which users belong to it too: a renamed group's members now name its new name.
   */
  | { readonly kind: "group"; readonly name: string; readonly members?: boolean }
  /** A customer managed policy's default version (or its deletion). */
  | { readonly kind: "managed-policy"; readonly arn: string }
  /** An S3 bucket's policy, or the bucket's creation or deletion. */
  | { readonly kind: "bucket"; readonly name: string }
  /** A KMS key's policy and state; `keyId` as the event names it (an ID or an ARN). */
  | { readonly kind: "key"; readonly keyId: string; readonly region: string }
  /** The organisation's SCPs and RCPs along each monitored account's path. */
  | { readonly kind: "organization" };

export type AwsEventTargetKind = AwsEventTarget["kind"];
