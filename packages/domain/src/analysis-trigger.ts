import { z } from "zod";
import {
  AccountId,
  AzureSubscriptionId,
  CustomerId,
  MappedCustomerId,
  PartnerCustomerId,
  PartnerId,
} from "./identifiers.ts";
import { OwnCredential } from "./own-credential.ts";

/** Endpoint 13's body: the identifiers of the path, repeated. */
export const AnalysisTrigger = z.strictObject({ customerId: CustomerId, accountId: AccountId });
export type AnalysisTrigger = z.infer<typeof AnalysisTrigger>;

/** Own credentials (section 2.5) are STS credentials: the rule when the account is an Azure subscription. */
export const OWN_CREDENTIAL_AWS_ONLY =
  "must not be 'credential' for an Azure subscription: own credentials (section 2.5) are AWS-only (providers aws and aws-us-gov); analyse the subscription with its configured auditor (config or cvs) by omitting auditorAuthMethod and auditorAuthCredential";

export const TriggeredAnalysis = z.object({
  customerId: CustomerId,
  accountId: AccountId,
  executionId: z.string(),
});
export type TriggeredAnalysis = z.infer<typeof TriggeredAnalysis>;

/**
 * Endpoint 14's body. Without `auditorAuthMethod` the account's configured method is used;
 * with `credential`, the caller's own STS credentials (section 2.5), which need no configured
 * account.
 */
export const PartnerAnalysisTrigger = z
  .strictObject({
    partnerId: PartnerId,
    partnerCustomerId: PartnerCustomerId,
    accountId: AccountId,
    auditorAuthMethod: z.literal("credential").optional(),
    auditorAuthCredential: OwnCredential.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.auditorAuthMethod === "credential" && !value.auditorAuthCredential)
      ctx.addIssue({
        code: "custom",
        path: ["auditorAuthCredential"],
        message: "is required when auditorAuthMethod is 'credential'",
      });
    if (
      value.auditorAuthMethod === "credential" &&
      AzureSubscriptionId.safeParse(value.accountId).success
    )
      ctx.addIssue({
        code: "custom",
        path: ["auditorAuthMethod"],
        message: OWN_CREDENTIAL_AWS_ONLY,
      });
    if (value.auditorAuthCredential && value.auditorAuthMethod !== "credential")
      ctx.addIssue({
        code: "custom",
        path: ["auditorAuthMethod"],
        message: "must be 'credential' when auditorAuthCredential is given",
      });
  });
export type PartnerAnalysisTrigger = z.infer<typeof PartnerAnalysisTrigger>;

export const TriggeredPartnerAnalysis = z.object({
  partnerId: PartnerId,
  partnerCustomerId: PartnerCustomerId,
  customerId: MappedCustomerId,
  accountId: AccountId,
  executionId: z.string(),
});
export type TriggeredPartnerAnalysis = z.infer<typeof TriggeredPartnerAnalysis>;
