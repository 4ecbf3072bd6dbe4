CREATE TABLE "account_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_name" text NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"targets" jsonb,
	"status" text NOT NULL,
	"execution_id" text
);
--> statement-breakpoint
CREATE TABLE "event_sources" (
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"token_created_at" timestamp with time zone NOT NULL,
	"events_received" bigint DEFAULT 0 NOT NULL,
	"events_applied" bigint DEFAULT 0 NOT NULL,
	"events_refused" bigint DEFAULT 0 NOT NULL,
	"unknown_events" bigint DEFAULT 0 NOT NULL,
	"last_event_at" timestamp with time zone,
	"last_applied_at" timestamp with time zone,
	CONSTRAINT "event_sources_customer_id_account_id_pk" PRIMARY KEY("customer_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"queue_schema" text NOT NULL,
	"owner" text NOT NULL,
	"execution_id" text,
	"losses" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lost_lease_counts" (
	"queue" text PRIMARY KEY NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"last_lost_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" DROP CONSTRAINT "executions_kind";--> statement-breakpoint
DROP INDEX "executions_one_active_per_account";--> statement-breakpoint
ALTER TABLE "access_changes" ADD COLUMN "cause" jsonb;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "progress" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "account_events_event_id_key" ON "account_events" USING btree ("customer_id","account_id","event_id");--> statement-breakpoint
CREATE INDEX "account_events_pending_idx" ON "account_events" USING btree ("customer_id","account_id","seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "account_events_received_idx" ON "account_events" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "event_sources_token_hash_key" ON "event_sources" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "job_leases_expiry_idx" ON "job_leases" USING btree ("queue_schema","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_one_active_event_step_per_account" ON "executions" USING btree ("customer_id","account_id") WHERE status in ('queued', 'running') and kind = 'event';--> statement-breakpoint
CREATE UNIQUE INDEX "executions_one_active_per_account" ON "executions" USING btree ("customer_id","account_id") WHERE status in ('queued', 'running') and kind <> 'event';--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_kind" CHECK (kind in ('ondemand', 'daily', 'event'));