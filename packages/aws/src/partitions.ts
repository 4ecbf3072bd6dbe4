import type { AwsPartition } from "@sightline/domain";
import { parseArn } from "@sightline/engine/arn";

/**
 * Where each partition's global services (STS, IAM, Organizations, S3 ListBuckets) are called.
 * The SDK derives the hostnames from the region. `aws-iso` and `aws-iso-b` hostnames exist in
 * the SDK but are reachable only inside those networks, with their own CA bundle: installs
 * there configure every endpoint (`AWS_ENDPOINT_URL_<SERVICE>` or `endpoints`).
 */
export const PARTITION_HOME_REGIONS: Readonly<Record<AwsPartition, string>> = {
  aws: "us-east-1",
  "aws-us-gov": "us-gov-west-1",
  "aws-iso": "us-iso-east-1",
  "aws-iso-b": "us-isob-east-1",
};

/** The region of a KMS key ARN, or undefined for a key ID or alias. */
export function regionOfKeyArn(keyId: string): string | undefined {
  const arn = parseArn(keyId);
  return arn?.service === "kms" && arn.region ? arn.region : undefined;
}
