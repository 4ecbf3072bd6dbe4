import { randomBytes, randomInt } from "node:crypto";
import type { SubscriptionPlanName } from "@sightline/domain";
import { type Logger, silentLogger } from "@sightline/logging";
import {
  type AlertSettings,
  DEFAULT_QUEUE_SETTINGS,
  localMasterKey,
  startJobQueue,
} from "@sightline/services";
import { afterAll, inject } from "vitest";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";

export const ADMIN_KEY = "test-operator-key-0123456789abcdef0123456789";

/**
 * An app on the run's test database, with a job queue of its own (jobs are only enqueued: no
 * worker runs), and helpers to call it as the operator, a partner or a direct customer.
 */
export async function createHarness(
  options: {
    logger?: Logger;
    /** A pg-boss schema of its own, for a file that runs a worker: it takes only its jobs. */
    queueSchema?: string;
    maintenance?: boolean;
    /** Bounds on each request's queries, as `SIGHTLINE_DB_*_TIMEOUT_SECONDS` set them. */
    statementTimeoutSeconds?: number;
    lockTimeoutSeconds?: number;
    /** Alert settings, as `SIGHTLINE_ALERT_*` and `SIGHTLINE_SMTP_URL` set them. */
    alerts?: AlertSettings;
  } = {},
) {
  const databaseUrl = inject("databaseUrl");
  const logger = options.logger ?? silentLogger;
  const boss = await startJobQueue({
    databaseUrl,
    logger,
    queue: DEFAULT_QUEUE_SETTINGS,
    maintenance: options.maintenance ?? false,
    maxConnections: 2,
    ...(options.queueSchema ? { schema: options.queueSchema } : {}),
  });
  const masterKey = localMasterKey(randomBytes(32));
  const running = await connectAppDeps({
    databaseUrl,
    adminKey: ADMIN_KEY,
    logger,
    boss,
    masterKey,
    maxConnections: 4,
    ...(options.statementTimeoutSeconds
      ? { statementTimeoutSeconds: options.statementTimeoutSeconds }
      : {}),
    ...(options.lockTimeoutSeconds ? { lockTimeoutSeconds: options.lockTimeoutSeconds } : {}),
    ...(options.alerts ? { alerts: options.alerts } : {}),
  });
  afterAll(async () => {
    await running.close();
    await boss.stop({ graceful: false });
  });
  const app = createApp(running.deps);

  async function call(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.request(path, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      json: json as Record<string, unknown> & unknown[],
      text,
    };
  }

  const admin = (method: string, path: string, body?: unknown) =>
    call(method, path, { key: ADMIN_KEY, body });

  /**
   * A fresh partner ID that no other test uses, configured, with a key of its own; with `oem`,
   * the operator has made it an OEM integration.
   */
  async function newPartner(options: { configure?: boolean; oem?: boolean } = {}) {
    const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
    const created = await admin("POST", "/admin/api-keys", { partnerId });
    if (created.status !== 201) throw new Error(`key creation failed: ${created.text}`);
    const key = created.json.key as string;
    if (options.configure !== false || options.oem) {
      const put = await call("PUT", `/partner/${partnerId}`, { key, body: { partnerId } });
      if (put.status !== 200) throw new Error(`partner PUT failed: ${put.text}`);
    }
    if (options.oem) {
      const body = { oemIntegrationEnabled: true };
      const granted = await admin("PUT", `/admin/partners/${partnerId}/oem-integration`, body);
      if (granted.status !== 200) throw new Error(`OEM grant failed: ${granted.text}`);
    }
    return { partnerId, key, keyId: created.json.id as string };
  }

  async function newPartnerCustomer(
    partner: { partnerId: string; key: string },
    partnerCustomerId = `cust-${randomInt(1e9)}`,
    plan: SubscriptionPlanName = "Team",
  ) {
    const put = await call("PUT", `/partner/${partner.partnerId}/customer/${partnerCustomerId}`, {
      key: partner.key,
      body: {
        partnerId: partner.partnerId,
        partnerCustomerId,
        subscriptionPlanName: plan,
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      },
    });
    if (put.status !== 200) throw new Error(`partner customer PUT failed: ${put.text}`);
    return { ...partner, partnerCustomerId, customerId: put.json.customerId as string };
  }

  /** A freshly registered direct customer (Starter unless told) with a key of its own. */
  async function newDirectCustomer(plan?: SubscriptionPlanName) {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    const registered = await admin("PUT", `/admin/customers/${customerId}`, {
      customerId,
      ...(plan ? { subscriptionPlanName: plan } : {}),
    });
    if (registered.status !== 200) throw new Error(`registration failed: ${registered.text}`);
    const created = await admin("POST", "/admin/api-keys", { customerId });
    if (created.status !== 201) throw new Error(`key creation failed: ${created.text}`);
    return { customerId, key: created.json.key as string };
  }

  return {
    app,
    deps: running.deps,
    boss,
    masterKey,
    call,
    admin,
    newPartner,
    newPartnerCustomer,
    newDirectCustomer,
  };
}

export const awsAccount = (accountId: string, partnerId: string, partnerCustomerId: string) => ({
  partnerId,
  partnerCustomerId,
  accountId,
  provider: "aws",
  auditorAuthMethod: "config",
  auditorAuthConfig: {
    roleArn: `arn:aws:iam::${accountId}:role/SightlineAuditor`,
    externalId: `sightline-ext-${partnerId}`,
  },
});
