import type { AwsSecurityFinding } from "@aws-sdk/client-securityhub";
import { type AccessChange, type ChangeKind, changeMatchesKind } from "@sightline/domain";

/** What every finding of one alert shares. */
export interface FindingContext {
  /** The account whose Security Hub receives the findings (the role's). */
  readonly hubAccountId: string;
  readonly region: string;
  readonly partition: string;
  /** The analysed account, and its provider (`aws`, `azure`, …). */
  readonly accountId: string;
  readonly provider: string;
  readonly executionId: string;
  readonly analysisTime: Date;
}

const HIGH: readonly ChangeKind[] = [
  "iam-admin-gained",
  "external-access-gained",
  "confidential-access-gained",
];

const TITLES: Readonly<Record<ChangeKind, string>> = {
  "principal-added": "New principal",
  "principal-removed": "Principal removed",
  "iam-admin-gained": "Principal became an IAM admin",
  "iam-admin-lost": "Principal is no longer an IAM admin",
  "access-gained": "Access gained",
  "access-lost": "Access lost",
  "external-access-gained": "Access from outside the account gained",
  "confidential-access-gained": "Access to confidential data gained",
  "credential-created": "Credential created",
  "credential-activated": "Credential activated",
  "credential-deactivated": "Credential deactivated",
};

/** Security Hub's limits on a finding's text fields. */
const MAX_TITLE = 256;
const MAX_DESCRIPTION = 1024;
const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** `HIGH` for what a security team wants to hear of the same day, `MEDIUM` otherwise. */
export function severityOf(change: AccessChange): "HIGH" | "MEDIUM" {
  return HIGH.some((kind) => changeMatchesKind(change, kind)) ? "HIGH" : "MEDIUM";
}

/** One sentence that says the change: who, what, where, before → after, granted by. */
export function describeChange(change: AccessChange): string {
  const what = [change.serviceName, change.accessCapability].filter(Boolean).join(" ");
  const where = change.resourceArn ? ` on ${change.resourceArn}` : what ? " (service-wide)" : "";
  const grantedBy =
    change.grantedBy.length > 0 ? `; granted by ${change.grantedBy.join(", ")}` : "";
  return `${change.principalType} ${change.principalArn}${what ? `: ${what}` : ""}${where}: ${change.before || "—"} → ${change.after || "—"}${grantedBy}`;
}

const resourceType = (arn: string): string => {
  if (/^arn:[^:]+:iam::\d{12}:role\//.test(arn)) return "AwsIamRole";
  if (/^arn:[^:]+:iam::\d{12}:user\//.test(arn)) return "AwsIamUser";
  if (/^arn:[^:]+:s3:::/.test(arn)) return "AwsS3Bucket";
  if (/^arn:[^:]+:kms:/.test(arn)) return "AwsKmsKey";
  return "Other";
};

/**
 * The ASFF finding of one change, under the account's default product. Security Hub takes a
 * default-product finding only from the account it names (`AwsAccountId`): that is the account
 * of the role Sightline imports with; the analysed account is named in the title, in
 * `ProductFields` and as an `Other` resource.
 */
export function securityHubFinding(
  change: AccessChange,
  context: FindingContext,
): AwsSecurityFinding {
  const at = context.analysisTime.toISOString();
  const subject = change.resourceArn || change.principalArn;
  const analysed = `${context.provider} account ${context.accountId}`;
  return {
    SchemaVersion: "2018-10-08",
    Id: change.changeId,
    ProductArn: `arn:${context.partition}:securityhub:${context.region}:${context.hubAccountId}:product/${context.hubAccountId}/default`,
    GeneratorId: `sightline/${change.kind}`,
    AwsAccountId: context.hubAccountId,
    Types: ["Software and Configuration Checks/AWS Security Best Practices"],
    CreatedAt: at,
    UpdatedAt: at,
    Severity: { Label: severityOf(change) },
    Title: clip(
      `${TITLES[change.kind]}: ${change.principalName || change.principalArn} in ${analysed}`,
      MAX_TITLE,
    ),
    Description: clip(describeChange(change), MAX_DESCRIPTION),
    ProductName: "Sightline",
    CompanyName: "Sightline",
    ProductFields: {
      "sightline/changeKind": change.kind,
      "sightline/change": change.change,
      "sightline/provider": context.provider,
      "sightline/accountId": context.accountId,
      "sightline/executionId": context.executionId,
    },
    Resources: [
      { Type: resourceType(subject), Id: subject, Partition: partitionOf(context.partition) },
      {
        Type: "Other",
        Id: `${context.provider}:${context.accountId}`,
        Partition: partitionOf(context.partition),
      },
    ],
    RecordState: "ACTIVE",
  };
}

const partitionOf = (partition: string) =>
  (partition === "aws-us-gov" ? "aws-us-gov" : partition === "aws-cn" ? "aws-cn" : "aws") as
    | "aws"
    | "aws-us-gov"
    | "aws-cn";
