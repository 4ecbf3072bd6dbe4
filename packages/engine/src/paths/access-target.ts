import type { ResourceType } from "../analyze/analysis-types.ts";
import { describeResource } from "../analyze/describe-resource.ts";
import { recordWithoutPolicy } from "../analyze/owned-resources.ts";
import { accountOfArn, parseArn } from "../arn/parse-arn.ts";
import type { PolicyType } from "../policy/policy-types.ts";
import type { AccountModel, ResourcePolicyRecord } from "../snapshot/account-model.ts";
import type { PathService } from "./path-query.ts";

/** The resource a query asks about, as the analysis sees it. */
export interface AccessTarget {
  record: ResourcePolicyRecord;
  resourceType: ResourceType;
  /** The resource is used through the queried service (a role through STS, a bucket through S3, …). */
  matchesService: boolean;
}

const PREFIX: Record<PathService, string> = { STS: "sts", S3: "s3", KMS: "kms" };

/**
 * Finds the resource's policy record, or stands one in with no statements (a bucket or
 * key whose policy was not supplied is still reachable through identity policies).
 */
export function resolveTarget(
  model: AccountModel,
  resourceId: string,
  service: PathService,
): AccessTarget {
  const known = model.resourcePolicies.get(resourceId);
  const record = known ?? standIn(resourceId);
  const shape = describeResource(record);
  return {
    record,
    resourceType: shape.type,
    matchesService: shape.prefix === PREFIX[service],
  };
}

function standIn(resourceArn: string): ResourcePolicyRecord {
  const arn = parseArn(resourceArn);
  const type: PolicyType =
    arn?.service === "iam" && arn.resource.startsWith("role/")
      ? "role-trust"
      : arn?.service === "kms"
        ? "kms-key"
        : "resource";
  return recordWithoutPolicy(resourceArn, accountOfArn(resourceArn), type);
}
