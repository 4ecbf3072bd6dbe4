import type { FeatureFlags, Provider, SubscriptionPlanName } from "@sightline/domain";
import { and, eq } from "drizzle-orm";
import type { Executor } from "./client.ts";
import {
  customerAccounts,
  directCustomers,
  monitoredAccounts,
  partnerCustomers,
  partners,
} from "./schema.ts";

/** The configured monitoring of an account: provider and auditor. */
export interface AccountMonitoring {
  provider: Provider;
  auditorAuthMethod: "config" | "cvs";
  auditorAuthConfig?: Record<string, unknown>;
}

/** Where an account's reports go: an S3 inbox under a KMS key, or (no bucket) the local inbox. */
export interface DeliverySettings {
  /** Whose inbox it is: the partner (`DeliverToPartner`) or the direct customer. */
  ownerId: string;
  bucketName?: string;
  /** The account the bucket must belong to (`ExpectedBucketOwner`), when configured. */
  expectedBucketOwner?: string;
  kmsKeyId?: string;
  featureFlags: FeatureFlags;
}

/** Everything an analysis of one account needs to know about its owner and configuration. */
export interface AccountContext {
  /** The direct customer's ID, or the partner customer's mapped ID. */
  customerId: string;
  accountId: string;
  partnerId?: string;
  partnerCustomerId?: string;
  plan: SubscriptionPlanName;
  /** The operator made the partner an OEM integration (`cvs` allowed); false for direct customers. */
  oemGranted: boolean;
  /** Undefined when the account is not configured (only an own credential can analyse it). */
  monitoring?: AccountMonitoring;
  delivery: DeliverySettings;
}

interface S3Destinations {
  DeliverToS3?: { bucketName?: string; expectedBucketOwner?: string };
}

function monitoringOf(row: {
  provider: string | null;
  method: string | null;
  config: Record<string, unknown> | null;
}): AccountMonitoring | undefined {
  if (!row.provider || !row.method) return undefined;
  return {
    provider: row.provider as Provider,
    auditorAuthMethod: row.method as AccountMonitoring["auditorAuthMethod"],
    ...(row.config ? { auditorAuthConfig: row.config } : {}),
  };
}

/** A partner customer's account; undefined when the partner customer is unknown. */
export async function loadPartnerAccountContext(
  db: Executor,
  key: { partnerId: string; partnerCustomerId: string; accountId: string },
): Promise<AccountContext | undefined> {
  const [row] = await db
    .select({
      customerId: partnerCustomers.customerId,
      plan: partnerCustomers.subscriptionPlanName,
      methods: partnerCustomers.deliveryDestinations,
      featureFlags: partnerCustomers.featureFlags,
      partnerDestinations: partners.deliveryDestinations,
      kmsKeyId: partners.awsEncryptionKeyId,
      oemGrantedAt: partners.oemGrantedAt,
      provider: monitoredAccounts.provider,
      method: monitoredAccounts.auditorAuthMethod,
      config: monitoredAccounts.auditorAuthConfig,
    })
    .from(partnerCustomers)
    .innerJoin(partners, eq(partners.partnerId, partnerCustomers.partnerId))
    .leftJoin(
      monitoredAccounts,
      and(
        eq(monitoredAccounts.partnerId, partnerCustomers.partnerId),
        eq(monitoredAccounts.partnerCustomerId, partnerCustomers.partnerCustomerId),
        eq(monitoredAccounts.accountId, key.accountId),
      ),
    )
    .where(
      and(
        eq(partnerCustomers.partnerId, key.partnerId),
        eq(partnerCustomers.partnerCustomerId, key.partnerCustomerId),
      ),
    );
  if (!row) return undefined;
  const toPartner = (row.methods as { methodName: string }[]).some(
    (m) => m.methodName === "DeliverToPartner",
  );
  const bucket = toPartner ? (row.partnerDestinations as S3Destinations).DeliverToS3 : undefined;
  const monitoring = monitoringOf(row);
  return {
    customerId: row.customerId,
    accountId: key.accountId,
    partnerId: key.partnerId,
    partnerCustomerId: key.partnerCustomerId,
    plan: row.plan as SubscriptionPlanName,
    oemGranted: row.oemGrantedAt !== null,
    ...(monitoring ? { monitoring } : {}),
    delivery: deliveryOf(key.partnerId, bucket, row.kmsKeyId, row.featureFlags),
  };
}

/** Where reports go: the bucket and its key when a bucket is configured, else the local inbox. */
function deliveryOf(
  ownerId: string,
  bucket: S3Destinations["DeliverToS3"],
  kmsKeyId: string | null,
  featureFlags: AccountContext["delivery"]["featureFlags"],
): AccountContext["delivery"] {
  const bucketName = bucket?.bucketName;
  return {
    ownerId,
    ...(bucketName ? { bucketName } : {}),
    ...(bucketName && bucket?.expectedBucketOwner
      ? { expectedBucketOwner: bucket.expectedBucketOwner }
      : {}),
    ...(bucketName && kmsKeyId ? { kmsKeyId } : {}),
    featureFlags,
  };
}

/** A direct customer's account; undefined when the customer is not registered. */
export async function loadDirectAccountContext(
  db: Executor,
  key: { customerId: string; accountId: string },
): Promise<AccountContext | undefined> {
  const [row] = await db
    .select({
      plan: directCustomers.subscriptionPlanName,
      destinations: directCustomers.deliveryDestinations,
      kmsKeyId: directCustomers.awsEncryptionKeyId,
      featureFlags: directCustomers.featureFlags,
      provider: customerAccounts.provider,
      method: customerAccounts.auditorAuthMethod,
      config: customerAccounts.auditorAuthConfig,
    })
    .from(directCustomers)
    .leftJoin(
      customerAccounts,
      and(
        eq(customerAccounts.customerId, directCustomers.customerId),
        eq(customerAccounts.accountId, key.accountId),
      ),
    )
    .where(eq(directCustomers.customerId, key.customerId));
  if (!row) return undefined;
  const bucket = (row.destinations as S3Destinations).DeliverToS3;
  const monitoring = monitoringOf(row);
  return {
    customerId: key.customerId,
    accountId: key.accountId,
    plan: row.plan as SubscriptionPlanName,
    oemGranted: false,
    ...(monitoring ? { monitoring } : {}),
    delivery: deliveryOf(key.customerId, bucket, row.kmsKeyId, row.featureFlags),
  };
}

/** The context by the execution's customer ID: a mapped ID (`P…-…`) is a partner customer's. */
export async function loadAccountContext(
  db: Executor,
  key: { customerId: string; accountId: string },
): Promise<AccountContext | undefined> {
  if (!key.customerId.startsWith("P")) return loadDirectAccountContext(db, key);
  const [owner] = await db
    .select({
      partnerId: partnerCustomers.partnerId,
      partnerCustomerId: partnerCustomers.partnerCustomerId,
    })
    .from(partnerCustomers)
    .where(eq(partnerCustomers.customerId, key.customerId));
  return owner && loadPartnerAccountContext(db, { ...owner, accountId: key.accountId });
}

/** Every monitored account, partner customers' and direct customers', for the daily run. */
export async function listAllMonitoredAccounts(
  db: Executor,
): Promise<{ customerId: string; accountId: string }[]> {
  const partnerRows = await db
    .select({ customerId: partnerCustomers.customerId, accountId: monitoredAccounts.accountId })
    .from(monitoredAccounts)
    .innerJoin(
      partnerCustomers,
      and(
        eq(partnerCustomers.partnerId, monitoredAccounts.partnerId),
        eq(partnerCustomers.partnerCustomerId, monitoredAccounts.partnerCustomerId),
      ),
    );
  const directRows = await db
    .select({ customerId: customerAccounts.customerId, accountId: customerAccounts.accountId })
    .from(customerAccounts);
  return [...partnerRows, ...directRows].sort(
    (a, b) => a.customerId.localeCompare(b.customerId) || a.accountId.localeCompare(b.accountId),
  );
}
