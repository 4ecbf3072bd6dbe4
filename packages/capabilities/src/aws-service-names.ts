/**
 * Display names that differ from the derived ones: k9 Security's names for the services its map
 * covers, and services whose iam-data name is misleading (a prefix shared by two API versions,
 * or the name of only one of the products that use the prefix).
 */
export const AWS_SERVICE_NAMES: Readonly<Record<string, string>> = {
  s3: "S3",
  kms: "KMS",
  iam: "IAM",
  sts: "STS",
  dynamodb: "DynamoDB",
  dax: "DynamoDB Accelerator (DAX)",
  rds: "RDS",
  "rds-data": "RDS Data",
  "rds-db": "RDS DB",
  apigateway: "API Gateway Management",
  cloudformation: "CloudFormation",
  elasticloadbalancing: "Elastic Load Balancing",
  greengrass: "IoT Greengrass",
  kinesisanalytics: "Kinesis Analytics",
  lex: "Lex",
  odb: "Oracle Database@AWS",
  "private-networks": "Private Networks",
  ses: "SES",
};

/**
 * `AWS Key Management Service` -> `Key Management Service`: iam-data's name without the
 * `AWS`/`Amazon` brand, unless the curated table above names the service.
 */
export function deriveAwsServiceName(prefix: string, iamName: string): string {
  const curated = AWS_SERVICE_NAMES[prefix];
  if (curated) return curated;
  const stripped = iamName.replace(/^(AWS|Amazon)\s*/, "").trim();
  return stripped.length > 0 ? stripped : iamName;
}

/** Names every prefix, appending ` (prefix)` to a derived name that two prefixes share. */
export function nameAwsServices(iamNames: ReadonlyMap<string, string>): Map<string, string> {
  const derived = new Map([...iamNames].map(([p, n]) => [p, deriveAwsServiceName(p, n)] as const));
  const counts = new Map<string, number>();
  for (const name of derived.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const [prefix, name] of derived) {
    names.set(prefix, (counts.get(name) ?? 0) > 1 ? `${name} (${prefix})` : name);
  }
  return names;
}
