import { FakeAwsError, serviceError } from "../fake-errors.ts";
import type { FakeOrganization, FakeOrganizationPolicy } from "../fake-model.ts";
import type { FakeCall, FakeServiceHandler } from "../fake-state.ts";
import { jsonResponse } from "../protocols/responses.ts";
import { jsonBody, jsonOperation, jsonPage } from "./json-params.ts";

/**
 * Organizations over AWS JSON 1.1. Any member may describe its organization; only the
 * management account or a delegated administrator may read roots, parents and policies.
 */
export const fakeOrganizations: FakeServiceHandler = {
  identify(request) {
    const body = jsonBody(request);
    const resource = body.TargetId ?? body.ChildId ?? body.PolicyId;
    return {
      operation: jsonOperation(request),
      ...(typeof resource === "string" ? { resource } : {}),
    };
  },
  handle(call) {
    return jsonResponse(answer(call));
  },
};

function answer(call: FakeCall): object {
  const org = call.state.model.organization;
  if (!org) {
    throw new FakeAwsError(
      "AWSOrganizationsNotInUseException",
      "Your account is not a member of an organization.",
      400,
    );
  }
  const arnPrefix = `arn:aws:organizations::${org.managementAccountId}`;
  if (call.operation === "DescribeOrganization") {
    return {
      Organization: {
        Id: org.id,
        Arn: `${arnPrefix}:organization/${org.id}`,
        FeatureSet: "ALL",
        MasterAccountId: org.managementAccountId,
        MasterAccountArn: `${arnPrefix}:account/${org.id}/${org.managementAccountId}`,
      },
    };
  }
  const accountId = call.state.model.accountId;
  if (accountId !== org.managementAccountId && !org.delegatedAdministrator) {
    throw serviceError(
      "organizations",
      "access-denied",
      "You don't have permissions to access this resource.",
    );
  }
  const body = jsonBody(call.request);
  switch (call.operation) {
    case "ListRoots": {
      const types = org.enabledPolicyTypes ?? ["SERVICE_CONTROL_POLICY", "RESOURCE_CONTROL_POLICY"];
      const policyTypes = types.map((Type) => ({ Type, Status: "ENABLED" }));
      return {
        Roots: [
          {
            Id: org.rootId,
            Arn: `${arnPrefix}:root/${org.id}/${org.rootId}`,
            Name: "Root",
            PolicyTypes: policyTypes,
          },
        ],
      };
    }
    case "ListParents": {
      const parent = org.parents[String(body.ChildId)];
      if (!parent)
        throw new FakeAwsError("ChildNotFoundException", `${String(body.ChildId)} not found`, 400);
      return {
        Parents: [{ Id: parent, Type: parent === org.rootId ? "ROOT" : "ORGANIZATIONAL_UNIT" }],
      };
    }
    case "ListPoliciesForTarget": {
      const attached = org.policies.filter(
        (policy) => policy.type === body.Filter && policy.targets.includes(String(body.TargetId)),
      );
      // Pages of one policy unless asked otherwise, so that clients must follow NextToken.
      const { page, next } = jsonPage(attached, body.NextToken, body.MaxResults ?? 1);
      const policies = page.map((policy) => summary(org, policy));
      return { Policies: policies, ...(next ? { NextToken: next } : {}) };
    }
    case "DescribePolicy": {
      const policy = org.policies.find((candidate) => candidate.id === body.PolicyId);
      if (!policy)
        throw new FakeAwsError(
          "PolicyNotFoundException",
          `${String(body.PolicyId)} not found`,
          400,
        );
      const content =
        typeof policy.document === "string" ? policy.document : JSON.stringify(policy.document);
      return { Policy: { PolicySummary: summary(org, policy), Content: content } };
    }
    default:
      throw new FakeAwsError(
        "UnknownOperationException",
        `Unsupported operation ${call.operation}`,
        400,
      );
  }
}

function summary(org: FakeOrganization, policy: FakeOrganizationPolicy): object {
  const kind = policy.type.toLowerCase();
  return {
    Id: policy.id,
    Arn: `arn:aws:organizations::${org.managementAccountId}:policy/${org.id}/${kind}/${policy.id}`,
    Name: policy.name,
    Type: policy.type,
    AwsManaged: policy.id === "p-FullAWSAccess",
  };
}
