import { parseArn } from "@sightline/engine/arn";
import { z } from "zod";
import {
  AccountId,
  AwsAccountId,
  AwsPartition,
  AzureCloud,
  AzureSubscriptionId,
  CustomerId,
  MappedCustomerId,
  PartnerCustomerId,
  PartnerId,
  Provider,
} from "./identifiers.ts";

/** AWS's allowed ExternalId characters (sts:AssumeRole), 2 to 1224 of them. */
export const ExternalId = z
  .string()
  .regex(
    /^[\w+=,.@:/-]{2,1224}$/,
    "must be 2 to 1224 characters of letters, digits and + = , . @ : / - _",
  );

/**
 * Why an AWS auditor role is refused: another tenant configures it with the same external ID.
 * Names the rule only, never the other tenant.
 */
export const AUDITOR_ROLE_IN_USE =
  "auditorAuthConfig: this role ARN and external ID are already configured by another Sightline tenant; AWS's confused-deputy guidance makes the external ID what tells tenants apart: choose a new external ID and require it in the role's trust policy";

const roleArnPattern = /^arn:[a-z-]+:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

export const AwsAuditorAuthConfig = z
  .strictObject({
    roleArn: z
      .string()
      .regex(roleArnPattern, "must be an IAM role ARN, e.g. arn:aws:iam::123456789012:role/Auditor")
      .describe("ARN of the auditing role in the monitored account"),
    externalId: ExternalId.describe("external ID that the role's trust policy requires"),
  })
  .meta({ id: "AwsAuditorAuthConfig" });
export type AwsAuditorAuthConfig = z.infer<typeof AwsAuditorAuthConfig>;

/** Azure: the service principal (app registration) that audits the subscription. */
export const AzureAuditorAuthConfig = z
  .strictObject({
    tenantId: AzureSubscriptionId.describe("Microsoft Entra tenant ID"),
    clientId: AzureSubscriptionId.describe("application (client) ID of the auditing principal"),
  })
  .meta({ id: "AzureAuditorAuthConfig" });
export type AzureAuditorAuthConfig = z.infer<typeof AzureAuditorAuthConfig>;

export const AuditorAuthMethod = z.enum(["config", "cvs"]);
export type AuditorAuthMethod = z.infer<typeof AuditorAuthMethod>;

type MethodAndConfig = { auditorAuthMethod: string; auditorAuthConfig?: unknown };

/** `config` needs `auditorAuthConfig`; `cvs` must not carry one (section 4.7). */
function checkAuthMethod(value: MethodAndConfig, ctx: z.RefinementCtx): void {
  const given = value.auditorAuthConfig !== undefined;
  if (value.auditorAuthMethod === "cvs" && given)
    ctx.addIssue({
      code: "custom",
      path: ["auditorAuthConfig"],
      message: "must be omitted when auditorAuthMethod is 'cvs'",
    });
  if (value.auditorAuthMethod === "config" && !given)
    ctx.addIssue({
      code: "custom",
      path: ["auditorAuthConfig"],
      message: "is required when auditorAuthMethod is 'config'",
    });
}

/** The auditor role must be in the monitored account and in the provider's partition. */
function checkRoleInAccount(
  value: { provider: string; accountId: string; auditorAuthConfig?: AwsAuditorAuthConfig },
  ctx: z.RefinementCtx,
): void {
  const role = value.auditorAuthConfig && parseArn(value.auditorAuthConfig.roleArn);
  if (!role) return;
  const message =
    role.partition !== value.provider
      ? `must be in partition '${value.provider}' of provider '${value.provider}'`
      : role.accountId !== value.accountId
        ? `must be a role in the monitored account ${value.accountId}`
        : undefined;
  if (message) ctx.addIssue({ code: "custom", path: ["auditorAuthConfig", "roleArn"], message });
}

const awsAccount = {
  accountId: AwsAccountId,
  provider: AwsPartition,
  auditorAuthConfig: AwsAuditorAuthConfig.optional(),
};
const azureAccount = {
  accountId: AzureSubscriptionId,
  provider: AzureCloud,
  auditorAuthConfig: AzureAuditorAuthConfig.optional(),
};
const AWS_DESCRIPTION =
  "Monitoring of an AWS account: the auditor is a role assumed with an external ID";
const AZURE_DESCRIPTION =
  "Monitoring of an Azure subscription: the auditor is a service principal of the tenant";

const partnerOwner = { partnerId: PartnerId, partnerCustomerId: PartnerCustomerId };

/**
 * Account monitoring configuration (section 2.4); the request body of endpoint 9. `provider`
 * chooses the shapes of `accountId` and `auditorAuthConfig`.
 */
export const AccountMonitoringConfig = z.discriminatedUnion("provider", [
  z
    .strictObject({ ...partnerOwner, ...awsAccount, auditorAuthMethod: AuditorAuthMethod })
    .superRefine(checkAuthMethod)
    .superRefine(checkRoleInAccount)
    .meta({ id: "AwsAccountMonitoringConfig", description: AWS_DESCRIPTION }),
  z
    .strictObject({ ...partnerOwner, ...azureAccount, auditorAuthMethod: AuditorAuthMethod })
    .superRefine(checkAuthMethod)
    .meta({ id: "AzureAccountMonitoringConfig", description: AZURE_DESCRIPTION }),
]);
export type AccountMonitoringConfig = z.infer<typeof AccountMonitoringConfig>;

/** Direct customers are not OEM partners: only the `config` method is theirs. */
const DirectAuthMethod = z.enum(["config"]);

/** A direct customer's monitored account (an extension mirroring endpoint 9). */
export const CustomerAccountConfig = z.discriminatedUnion("provider", [
  z
    .strictObject({ customerId: CustomerId, ...awsAccount, auditorAuthMethod: DirectAuthMethod })
    .superRefine(checkAuthMethod)
    .superRefine(checkRoleInAccount)
    .meta({ id: "AwsCustomerAccountConfig", description: AWS_DESCRIPTION }),
  z
    .strictObject({ customerId: CustomerId, ...azureAccount, auditorAuthMethod: DirectAuthMethod })
    .superRefine(checkAuthMethod)
    .meta({ id: "AzureCustomerAccountConfig", description: AZURE_DESCRIPTION }),
]);
export type CustomerAccountConfig = z.infer<typeof CustomerAccountConfig>;

/** A stored monitoring record as returned by endpoints 9 to 11. */
export const MonitoredAccountRecord = z.object({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
  customerId: MappedCustomerId,
  provider: Provider,
  accountId: AccountId,
});
export type MonitoredAccountRecord = z.infer<typeof MonitoredAccountRecord>;

/** Endpoint 10's answer: `provider` is absent when there was no configuration to delete. */
export const DeletedMonitoredAccount = MonitoredAccountRecord.extend({
  provider: Provider.optional(),
});
export type DeletedMonitoredAccount = z.infer<typeof DeletedMonitoredAccount>;

export const MonitoredAccountList = z.array(MonitoredAccountRecord);

export const MonitoredAccountPath = z.object({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
  accountId: AccountId,
});

export const CustomerAccountRecord = z.object({
  customerId: CustomerId,
  accountId: AccountId,
  provider: Provider,
});
export type CustomerAccountRecord = z.infer<typeof CustomerAccountRecord>;

export const DeletedCustomerAccount = CustomerAccountRecord.extend({
  provider: Provider.optional(),
});
export type DeletedCustomerAccount = z.infer<typeof DeletedCustomerAccount>;

export const CustomerAccountList = z.array(CustomerAccountRecord);

export const CustomerAccountPath = z.object({ customerId: CustomerId, accountId: AccountId });
export const CustomerPath = z.object({ customerId: CustomerId });
