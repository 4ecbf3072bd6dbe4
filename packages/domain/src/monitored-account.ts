import { z } from "zod";
import {
  AccountId,
  AwsAccountId,
  AzureSubscriptionId,
  MappedCustomerId,
  PartnerCustomerId,
  PartnerId,
  Provider,
  partitionOfProvider,
} from "./identifiers.ts";

/** AWS's allowed ExternalId characters (sts:AssumeRole), 2 to 1224 of them. */
export const ExternalId = z
  .string()
  .regex(
    /^[\w+=,.@:/-]{2,1224}$/,
    "must be 2 to 1224 characters of letters, digits and + = , . @ : / - _",
  );

const roleArnPattern = /^arn:([a-z-]+):iam::(\d{12}):role\/([\w+=,.@/-]{1,512})$/;

export const AwsAuditorAuthConfig = z.strictObject({
  roleArn: z
    .string()
    .regex(roleArnPattern, "must be an IAM role ARN, e.g. arn:aws:iam::123456789012:role/Auditor"),
  externalId: ExternalId,
});
export type AwsAuditorAuthConfig = z.infer<typeof AwsAuditorAuthConfig>;

/** Azure: the service principal (app registration) that audits the subscription. */
export const AzureAuditorAuthConfig = z.strictObject({
  tenantId: AzureSubscriptionId.describe("Microsoft Entra tenant ID"),
  clientId: AzureSubscriptionId.describe("application (client) ID of the auditing principal"),
});
export type AzureAuditorAuthConfig = z.infer<typeof AzureAuditorAuthConfig>;

export const AuditorAuthMethod = z.enum(["config", "cvs"]);
export type AuditorAuthMethod = z.infer<typeof AuditorAuthMethod>;

/** Account monitoring configuration (section 2.4); the request body of endpoint 9. */
export const AccountMonitoringConfig = z
  .strictObject({
    partnerId: PartnerId,
    partnerCustomerId: PartnerCustomerId,
    accountId: AccountId,
    provider: Provider,
    auditorAuthMethod: AuditorAuthMethod,
    auditorAuthConfig: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((value, ctx) => {
    const partition = partitionOfProvider(value.provider);
    const idSchema = partition ? AwsAccountId : AzureSubscriptionId;
    const id = idSchema.safeParse(value.accountId);
    if (!id.success) {
      ctx.addIssue({
        code: "custom",
        path: ["accountId"],
        message: `${id.error.issues[0]?.message} for provider '${value.provider}'`,
      });
    }
    if (value.auditorAuthMethod === "cvs") {
      if (value.auditorAuthConfig !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["auditorAuthConfig"],
          message: "must be omitted when auditorAuthMethod is 'cvs'",
        });
      }
      return;
    }
    if (value.auditorAuthConfig === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["auditorAuthConfig"],
        message: "is required when auditorAuthMethod is 'config'",
      });
      return;
    }
    const schema = partition ? AwsAuditorAuthConfig : AzureAuditorAuthConfig;
    const config = schema.safeParse(value.auditorAuthConfig);
    if (!config.success) {
      for (const issue of config.error.issues) {
        ctx.addIssue({
          code: "custom",
          path: ["auditorAuthConfig", ...issue.path.map(String)],
          message: issue.message,
        });
      }
      return;
    }
    if (partition && "roleArn" in config.data) {
      const [, arnPartition, arnAccount] = roleArnPattern.exec(config.data.roleArn) ?? [];
      if (arnPartition !== partition) {
        ctx.addIssue({
          code: "custom",
          path: ["auditorAuthConfig", "roleArn"],
          message: `must be in partition '${partition}' of provider '${value.provider}'`,
        });
      } else if (arnAccount !== value.accountId) {
        ctx.addIssue({
          code: "custom",
          path: ["auditorAuthConfig", "roleArn"],
          message: `must be a role in the monitored account ${value.accountId}`,
        });
      }
    }
  });
export type AccountMonitoringConfig = z.infer<typeof AccountMonitoringConfig>;

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
