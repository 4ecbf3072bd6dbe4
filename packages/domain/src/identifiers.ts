import { PARTITIONS } from "@sightline/engine/arn";
import { z } from "zod";

/** Identifier patterns of the interface contract, section 2.1. Each message names the rule. */
export const PartnerId = z
  .string()
  .regex(/^P\d{6}$/, "must be 'P' followed by 6 digits, e.g. P123456");
export type PartnerId = z.infer<typeof PartnerId>;

export const PartnerCustomerId = z
  .string()
  .regex(
    /^[A-Za-z0-9_.-]{6,64}$/,
    "must be 6 to 64 characters of letters, digits, '_', '-' and '.'",
  );
export type PartnerCustomerId = z.infer<typeof PartnerCustomerId>;

/** A direct customer of the service. */
export const CustomerId = z.string().regex(/^C\d{5,6}$/, "must be 'C' followed by 5 or 6 digits");
export type CustomerId = z.infer<typeof CustomerId>;

/** The customerId the service assigns to a partner customer: `<partnerId>-<12 digits>`. */
export const MappedCustomerId = z
  .string()
  .regex(/^P\d{6}-\d{12}$/, "must be '<partnerId>-' followed by 12 digits");
export type MappedCustomerId = z.infer<typeof MappedCustomerId>;

export const AwsAccountId = z.string().regex(/^\d{12}$/, "must be exactly 12 digits");
export const AzureSubscriptionId = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    "must be an Azure subscription ID (a UUID)",
  );

/** A cloud account: a 12-digit AWS account ID or an Azure subscription UUID. */
export const AccountId = z
  .string()
  .regex(
    /^(\d{12}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/,
    "must be a 12-digit account ID or an Azure subscription ID (a UUID)",
  );
export type AccountId = z.infer<typeof AccountId>;

/** The AWS providers are the engine's partitions: one list for validation and analysis. */
export const AwsPartition = z.enum(PARTITIONS);
export type AwsPartition = z.infer<typeof AwsPartition>;

export const AzureCloud = z.enum(["azure", "azure-government"]);
export type AzureCloud = z.infer<typeof AzureCloud>;

export const Provider = z.enum([...AwsPartition.options, ...AzureCloud.options]);
export type Provider = z.infer<typeof Provider>;

/** The AWS partition of a provider, or undefined for Azure. */
export function partitionOfProvider(provider: Provider): AwsPartition | undefined {
  return provider === "azure" || provider === "azure-government" ? undefined : provider;
}

export function isAzureProvider(provider: Provider): boolean {
  return partitionOfProvider(provider) === undefined;
}

/** C0 and C1 control characters (NUL included): Postgres refuses NUL, and none belongs in a name. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** Free text a person types (a customer's name): trimmed, bounded, no control characters. */
export function freeText(max: number) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), "must not contain control characters");
}

/** A secret or token: bounded, no control characters (never trimmed: it is used as given). */
export function opaqueText(max: number) {
  return z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), "must not contain control characters");
}
