CREATE TABLE "alert_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"alert_id" text NOT NULL,
	"destination_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"status" integer,
	"error" text,
	CONSTRAINT "alert_attempts_outcome" CHECK (outcome in ('delivered', 'retrying', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "alert_changes" (
	"destination_id" uuid NOT NULL,
	"change_id" text NOT NULL,
	"alert_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_changes_destination_id_change_id_pk" PRIMARY KEY("destination_id","change_id")
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"alert_id" text PRIMARY KEY NOT NULL,
	"destination_id" uuid NOT NULL,
	"execution_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"analysis_time" timestamp with time zone NOT NULL,
	"change_ids" text[] NOT NULL,
	"changes" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_deliveries_status" CHECK (status in ('queued', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "alert_destinations" (
	"destination_id" uuid PRIMARY KEY NOT NULL,
	"owner_kind" text NOT NULL,
	"partner_id" text,
	"customer_id" text,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"config" jsonb NOT NULL,
	"secret_envelope" jsonb,
	"alert_on" text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_destinations_owner" CHECK ((owner_kind = 'partner' and partner_id is not null and customer_id is null) or (owner_kind = 'direct' and customer_id is not null and partner_id is null)),
	CONSTRAINT "alert_destinations_kind" CHECK (kind in ('webhook', 'email', 'securityhub'))
);
--> statement-breakpoint
ALTER TABLE "alert_attempts" ADD CONSTRAINT "alert_attempts_alert_id_alert_deliveries_alert_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alert_deliveries"("alert_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_attempts" ADD CONSTRAINT "alert_attempts_destination_id_alert_destinations_destination_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."alert_destinations"("destination_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_changes" ADD CONSTRAINT "alert_changes_destination_id_alert_destinations_destination_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."alert_destinations"("destination_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_destination_id_alert_destinations_destination_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."alert_destinations"("destination_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD CONSTRAINT "alert_destinations_partner_id_partners_partner_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("partner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD CONSTRAINT "alert_destinations_customer_id_direct_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."direct_customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_attempts_destination_idx" ON "alert_attempts" USING btree ("destination_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_deliveries_destination_idx" ON "alert_deliveries" USING btree ("destination_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "alert_destinations_owner_name_key" ON "alert_destinations" USING btree (coalesce("partner_id", "customer_id"),lower("name"));--> statement-breakpoint
CREATE INDEX "alert_destinations_partner_idx" ON "alert_destinations" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "alert_destinations_customer_idx" ON "alert_destinations" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "alert_destinations_role_idx" ON "alert_destinations" USING btree (lower("config"->>'roleArn')) WHERE kind = 'securityhub';