import type { AwsCloudTrailEvent } from "./aws-event.ts";
import type { AwsEventName } from "./aws-event-names.ts";
import type { AwsEventTarget } from "./event-target.ts";
import {
  callingUser,
  IAM_NAME,
  missing,
  POLICY_ARN,
  parameter,
  response,
  type TargetReader,
  type TargetsOfEvent,
  targets,
  unknown,
} from "./read-event-fields.ts";

type EntityKind = "user" | "group" | "role";

/** The user, group or role a request parameter names (`AttachRolePolicy` → its `roleName`). */
const named =
  (kind: EntityKind): TargetReader =>
  (event) => {
    const found = parameter(event, `${kind}Name`, IAM_NAME);
    return found ? targets({ kind, name: found }) : missing(event, `${kind} (${kind}Name)`);
  };

/**
 * A rename (`newUserName`, `newGroupName`) or a new path: the old name is read back (gone) and
 * the new one read. Users name their groups, so a renamed group's members are read again too.
 */
const renamed =
  (kind: "user" | "group", newName: "newUserName" | "newGroupName"): TargetReader =>
  (event) => {
    const old = parameter(event, `${kind}Name`, IAM_NAME);
    if (!old) return missing(event, `${kind} (${kind}Name)`);
    const renamedTo = parameter(event, newName, IAM_NAME);
    const entity = (name: string): AwsEventTarget =>
      kind === "group" && renamedTo ? { kind, name, members: true } : { kind, name };
    return targets(entity(old), ...(renamedTo && renamedTo !== old ? [entity(renamedTo)] : []));
  };

/**
 * Access keys and passwords: a user may manage its own without naming itself, so the name
 * comes from the request, the answer (`CreateAccessKey`) or the calling IAM user. The root
 * user's own keys are in the credential report alone: not read incrementally.
 */
const credentials: TargetReader = (event) => {
  const name =
    parameter(event, "userName", IAM_NAME) ??
    response(event, IAM_NAME, "accessKey", "userName") ??
    response(event, IAM_NAME, "loginProfile", "userName") ??
    callingUser(event);
  if (name) return targets({ kind: "user", name, credentials: true });
  if (event.detail.userIdentity.type === "Root")
    return unknown(`${event.detail.eventName} changed the root user's own credentials`);
  return missing(event, "user (userName, or an IAM user calling for itself)");
};

/** A service-linked role's name is AWS's choice: the answer names it. */
const serviceLinkedRole: TargetReader = (event) => {
  const name = response(event, IAM_NAME, "role", "roleName");
  return name ? targets({ kind: "role", name }) : missing(event, "role (role.roleName)");
};

const policy: TargetReader = (event) => {
  const arn = parameter(event, "policyArn", POLICY_ARN);
  return arn ? targets({ kind: "managed-policy", arn }) : missing(event, "policy (policyArn)");
};

/** A new policy's ARN is in the answer only. */
const createdPolicy: TargetReader = (event) => {
  const arn = response(event, POLICY_ARN, "policy", "arn");
  return arn ? targets({ kind: "managed-policy", arn }) : missing(event, "policy (policy.arn)");
};

const user = named("user");
const group = named("group");
const role = named("role");

/** Every IAM event of the list: the compiler refuses a listed name without its reader. */
const IAM_READERS: Record<AwsEventName<"iam.amazonaws.com">, TargetReader> = {
  CreateUser: user,
  DeleteUser: user,
  UpdateUser: renamed("user", "newUserName"),
  PutUserPolicy: user,
  DeleteUserPolicy: user,
  AttachUserPolicy: user,
  DetachUserPolicy: user,
  PutUserPermissionsBoundary: user,
  DeleteUserPermissionsBoundary: user,
  TagUser: user,
  UntagUser: user,
  // Membership is read through the user (its groups), never the whole group.
  AddUserToGroup: user,
  RemoveUserFromGroup: user,
  CreateAccessKey: credentials,
  DeleteAccessKey: credentials,
  UpdateAccessKey: credentials,
  CreateLoginProfile: credentials,
  UpdateLoginProfile: credentials,
  DeleteLoginProfile: credentials,
  ChangePassword: credentials,
  CreateGroup: group,
  DeleteGroup: group,
  UpdateGroup: renamed("group", "newGroupName"),
  PutGroupPolicy: group,
  DeleteGroupPolicy: group,
  AttachGroupPolicy: group,
  DetachGroupPolicy: group,
  CreateRole: role,
  DeleteRole: role,
  CreateServiceLinkedRole: serviceLinkedRole,
  DeleteServiceLinkedRole: role,
  UpdateAssumeRolePolicy: role,
  PutRolePolicy: role,
  DeleteRolePolicy: role,
  AttachRolePolicy: role,
  DetachRolePolicy: role,
  PutRolePermissionsBoundary: role,
  DeleteRolePermissionsBoundary: role,
  TagRole: role,
  UntagRole: role,
  CreatePolicy: createdPolicy,
  DeletePolicy: policy,
  CreatePolicyVersion: policy,
  DeletePolicyVersion: policy,
  SetDefaultPolicyVersion: policy,
};

export function targetsOfIamEvent(
  event: AwsCloudTrailEvent,
  name: AwsEventName<"iam.amazonaws.com">,
): TargetsOfEvent {
  return IAM_READERS[name](event);
}
