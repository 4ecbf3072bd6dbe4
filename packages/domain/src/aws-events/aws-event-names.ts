/**
 * Exactly the CloudTrail events whose changes the full collection reads (`@sightline/aws`
 * `collectAccount`): IAM's authorization details and credential report, bucket policies, key
 * policies and states, and the SCPs and RCPs. Keyed by `detail.eventSource`, since IAM and
 * Organizations both have a `CreatePolicy` and a `DeletePolicy`. What the collection does not
 * read (bucket ACLs and public-access blocks, KMS grants and aliases, instance profiles, MFA
 * devices, IAM descriptions) is left out: an event may never claim more than a full analysis knows.
 */
export const AWS_EVENT_NAMES = {
  "iam.amazonaws.com": [
    // Users, their policies, boundaries, tags and groups.
    "CreateUser",
    "DeleteUser",
    "UpdateUser",
    "PutUserPolicy",
    "DeleteUserPolicy",
    "AttachUserPolicy",
    "DetachUserPolicy",
    "PutUserPermissionsBoundary",
    "DeleteUserPermissionsBoundary",
    "TagUser",
    "UntagUser",
    "AddUserToGroup",
    "RemoveUserFromGroup",
    // Credentials: the credential report's access keys and passwords.
    "CreateAccessKey",
    "DeleteAccessKey",
    "UpdateAccessKey",
    "CreateLoginProfile",
    "UpdateLoginProfile",
    "DeleteLoginProfile",
    "ChangePassword",
    // Groups.
    "CreateGroup",
    "DeleteGroup",
    "UpdateGroup",
    "PutGroupPolicy",
    "DeleteGroupPolicy",
    "AttachGroupPolicy",
    "DetachGroupPolicy",
    // Roles, their trust policies, policies, boundaries and tags.
    "CreateRole",
    "DeleteRole",
    "CreateServiceLinkedRole",
    "DeleteServiceLinkedRole",
    "UpdateAssumeRolePolicy",
    "PutRolePolicy",
    "DeleteRolePolicy",
    "AttachRolePolicy",
    "DetachRolePolicy",
    "PutRolePermissionsBoundary",
    "DeleteRolePermissionsBoundary",
    "TagRole",
    "UntagRole",
    // Customer managed policies and their versions.
    "CreatePolicy",
    "DeletePolicy",
    "CreatePolicyVersion",
    "DeletePolicyVersion",
    "SetDefaultPolicyVersion",
  ],
  "s3.amazonaws.com": ["CreateBucket", "DeleteBucket", "PutBucketPolicy", "DeleteBucketPolicy"],
  "kms.amazonaws.com": [
    "CreateKey",
    "ReplicateKey",
    "PutKeyPolicy",
    "EnableKey",
    "DisableKey",
    "ScheduleKeyDeletion",
    "CancelKeyDeletion",
  ],
  "organizations.amazonaws.com": [
    "CreatePolicy",
    "UpdatePolicy",
    "DeletePolicy",
    "AttachPolicy",
    "DetachPolicy",
    "EnablePolicyType",
    "DisablePolicyType",
    "MoveAccount",
  ],
} as const;

export type AwsEventSource = keyof typeof AWS_EVENT_NAMES;
export type AwsEventName<S extends AwsEventSource = AwsEventSource> =
  (typeof AWS_EVENT_NAMES)[S][number];

/** EventBridge's `source` for each CloudTrail `eventSource`. */
export const EVENTBRIDGE_SOURCES: Record<AwsEventSource, string> = {
  "iam.amazonaws.com": "aws.iam",
  "s3.amazonaws.com": "aws.s3",
  "kms.amazonaws.com": "aws.kms",
  "organizations.amazonaws.com": "aws.organizations",
};

export function isAwsEventSource(eventSource: string): eventSource is AwsEventSource {
  return Object.hasOwn(AWS_EVENT_NAMES, eventSource);
}

/** Whether Sightline reads what this call changes (an unlisted call is counted, never applied). */
export function isAwsEventName<S extends AwsEventSource>(
  eventSource: S,
  eventName: string,
): eventName is AwsEventName<S> {
  return (AWS_EVENT_NAMES[eventSource] as readonly string[]).includes(eventName);
}
