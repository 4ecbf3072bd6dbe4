CREATE SEQUENCE "public"."customer_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"partner_id" text,
	"customer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_one_scope" CHECK ((partner_id is null) <> (customer_id is null))
);
--> statement-breakpoint
CREATE TABLE "direct_customers" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitored_accounts" (
	"partner_id" text NOT NULL,
	"partner_customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"auditor_auth_method" text NOT NULL,
	"auditor_auth_config" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitored_accounts_partner_id_partner_customer_id_account_id_pk" PRIMARY KEY("partner_id","partner_customer_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "partner_customers" (
	"partner_id" text NOT NULL,
	"partner_customer_id" text NOT NULL,
	"customer_number" bigint DEFAULT nextval('customer_number_seq') NOT NULL,
	"customer_id" text GENERATED ALWAYS AS (partner_id || '-' || lpad(customer_number::text, 12, '0')) STORED NOT NULL,
	"subscription_plan_name" text NOT NULL,
	"delivery_destinations" jsonb NOT NULL,
	"feature_flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_customers_partner_id_partner_customer_id_pk" PRIMARY KEY("partner_id","partner_customer_id")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"partner_id" text PRIMARY KEY NOT NULL,
	"configs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"aws_encryption_key_id" text,
	"delivery_destinations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_customer_id_direct_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."direct_customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitored_accounts" ADD CONSTRAINT "monitored_accounts_partner_customer_fk" FOREIGN KEY ("partner_id","partner_customer_id") REFERENCES "public"."partner_customers"("partner_id","partner_customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_customers" ADD CONSTRAINT "partner_customers_partner_id_partners_partner_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("partner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_partner_id_idx" ON "api_keys" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_customers_customer_id_key" ON "partner_customers" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_customers_customer_number_key" ON "partner_customers" USING btree ("customer_number");