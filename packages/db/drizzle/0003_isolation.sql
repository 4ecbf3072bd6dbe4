CREATE TABLE "delivery_verifications" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"bucket_name" text NOT NULL,
	"expected_bucket_owner" text,
	"token" text NOT NULL,
	"proven_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oem_revocations" (
	"partner_id" text PRIMARY KEY NOT NULL,
	"cvs_accounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "report_minute" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "oem_granted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "customer_accounts_auditor_role_idx" ON "customer_accounts" USING btree (lower("auditor_auth_config"->>'roleArn'),("auditor_auth_config"->>'externalId'));--> statement-breakpoint
CREATE UNIQUE INDEX "executions_report_minute_per_account" ON "executions" USING btree ("customer_id","account_id","report_minute") WHERE report_minute is not null;--> statement-breakpoint
CREATE INDEX "monitored_accounts_auditor_role_idx" ON "monitored_accounts" USING btree (lower("auditor_auth_config"->>'roleArn'),("auditor_auth_config"->>'externalId'));--> statement-breakpoint
-- OEM status was set by partners' own keys: record who had it (and their cvs accounts) for the operator, then clear it.
INSERT INTO "oem_revocations" ("partner_id", "cvs_accounts")
SELECT p."partner_id",
       coalesce((SELECT jsonb_agg(m."partner_customer_id" || '/' || m."account_id" ORDER BY m."partner_customer_id", m."account_id")
                 FROM "monitored_accounts" m
                 WHERE m."partner_id" = p."partner_id" AND m."auditor_auth_method" = 'cvs'), '[]'::jsonb)
FROM "partners" p
WHERE p."configs"->>'oemIntegrationEnabled' = 'true'
   OR EXISTS (SELECT 1 FROM "monitored_accounts" m WHERE m."partner_id" = p."partner_id" AND m."auditor_auth_method" = 'cvs');--> statement-breakpoint
UPDATE "partners" SET "configs" = "configs" - 'oemIntegrationEnabled', "updated_at" = now()
WHERE "configs" ? 'oemIntegrationEnabled';--> statement-breakpoint
-- Dated keys delivered before: each account's first execution of a minute holds that minute.
UPDATE "executions" e SET "report_minute" = f."minute"
FROM (SELECT "execution_id", date_trunc('minute', "started_at") AS "minute",
             row_number() OVER (PARTITION BY "customer_id", "account_id", date_trunc('minute', "started_at") ORDER BY "started_at", "execution_id") AS "n"
      FROM "executions" WHERE "status" = 'succeeded' AND "started_at" IS NOT NULL) f
WHERE e."execution_id" = f."execution_id" AND f."n" = 1;
