import { parseArn } from "../arn/parse-arn.ts";
import type { ResourcePolicyRecord } from "../snapshot/account-model.ts";
import type { ResourceType } from "./analysis-types.ts";

export interface ResourceShape {
  type: ResourceType;
  /** Actions through which the resource is used: `sts` for roles, else the ARN's service. */
  prefix: string;
  /** Literal resources to evaluate: an S3 bucket adds `bucket/*` for object-level actions. */
  literal: string;
  objectLiteral?: string;
}

export function describeResource(record: ResourcePolicyRecord): ResourceShape {
  const arn = record.resourceArn;
  if (record.policy.type === "role-trust") return { type: "IAMRole", prefix: "sts", literal: arn };
  if (record.policy.type === "kms-key") return { type: "KMSKey", prefix: "kms", literal: arn };
  if (arn.includes(":s3:::") && !arn.slice(arn.indexOf(":s3:::") + 6).includes("/")) {
    return { type: "S3Bucket", prefix: "s3", literal: arn, objectLiteral: `${arn}/*` };
  }
  return { type: "Other", prefix: parseArn(arn)?.service ?? "", literal: arn };
}
