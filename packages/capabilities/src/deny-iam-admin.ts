import { listAwsActions } from "./aws-catalogue.ts";
import { compareActionNames } from "./capability.ts";
import type { PolicyDocument, PolicyStatement } from "./policy-document.ts";

/** Every IAM action classified administer-resource, sorted. */
export function listIamAdministerActions(): string[] {
  return listAwsActions()
    .filter((a) => a.prefix === "iam" && a.capabilities.includes("administer-resource"))
    .map((a) => a.action)
    .sort(compareActionNames);
}

function buildDenyStatement(): PolicyStatement {
  return {
    Sid: "DenyIAMAdministerResource",
    Effect: "Deny",
    Action: listIamAdministerActions(),
    Resource: "*",
  };
}

/** Endpoint 4: a permissions boundary that allows everything except administering IAM. */
export function buildDenyIamAdminBoundaryPolicy(): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [
      buildDenyStatement(),
      {
        Sid: "AllowPermissionsGrantedByOtherPolicies",
        Effect: "Allow",
        Action: "*",
        Resource: "*",
      },
    ],
  };
}

/** Endpoint 5: the same Deny alone, safe to attach to a user, group or role (it grants nothing). */
export function buildDenyIamAdminIdentityPolicy(): PolicyDocument {
  return { Version: "2012-10-17", Statement: [buildDenyStatement()] };
}
