/**
 * Services whose actions RCPs restrict (AWS Organizations User Guide, "Resource control
 * policies (RCPs)": list of AWS services that support RCPs). RCPs leave other services'
 * actions alone. Update this list when AWS adds services.
 */
export const RCP_SERVICE_PREFIXES: readonly string[] = [
  "s3",
  "sts",
  "kms",
  "sqs",
  "secretsmanager",
  "ecr",
  "aoss",
  "cognito-idp",
  "logs",
  "dynamodb",
];

export function rcpCoversAction(action: string): boolean {
  const prefix = action.split(":")[0]?.toLowerCase() ?? "";
  return RCP_SERVICE_PREFIXES.includes(prefix);
}
