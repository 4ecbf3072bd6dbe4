CREATE TABLE "account_snapshots" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_accounts" (
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"auditor_auth_method" text NOT NULL,
	"auditor_auth_config" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_accounts_customer_id_account_id_pk" PRIMARY KEY("customer_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "execution_credentials" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"key_source" text NOT NULL,
	"master_key_id" text NOT NULL,
	"wrapped_key" "bytea" NOT NULL,
	"iv" "bytea" NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	"auth_tag" "bytea" NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"partner_id" text,
	"partner_customer_id" text,
	"provider" text NOT NULL,
	"auth_method" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"report_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "executions_kind" CHECK (kind in ('ondemand', 'daily')),
	CONSTRAINT "executions_status" CHECK (status in ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "direct_customers" ADD COLUMN "subscription_plan_name" text DEFAULT 'Starter' NOT NULL;--> statement-breakpoint
ALTER TABLE "direct_customers" ADD COLUMN "aws_encryption_key_id" text;--> statement-breakpoint
ALTER TABLE "direct_customers" ADD COLUMN "delivery_destinations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "direct_customers" ADD COLUMN "feature_flags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "account_snapshots" ADD CONSTRAINT "account_snapshots_execution_id_executions_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_accounts" ADD CONSTRAINT "customer_accounts_customer_id_direct_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."direct_customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_credentials" ADD CONSTRAINT "execution_credentials_execution_id_executions_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_snapshots_account_idx" ON "account_snapshots" USING btree ("customer_id","account_id","collected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_account_created_idx" ON "executions" USING btree ("customer_id","account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "executions_one_active_per_account" ON "executions" USING btree ("customer_id","account_id") WHERE status in ('queued', 'running');