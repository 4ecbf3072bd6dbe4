CREATE TABLE "access_changes" (
	"execution_id" text NOT NULL,
	"change_id" text NOT NULL,
	"seq" integer NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"analysis_time" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"change" jsonb NOT NULL,
	CONSTRAINT "access_changes_execution_id_change_id_pk" PRIMARY KEY("execution_id","change_id")
);
--> statement-breakpoint
CREATE TABLE "analysis_principals" (
	"execution_id" text NOT NULL,
	"principal_arn" text COLLATE "C" NOT NULL,
	"principal_name" text NOT NULL,
	"principal_type" text NOT NULL,
	"iam_admin" text NOT NULL,
	"data" "bytea" NOT NULL,
	"details" jsonb NOT NULL,
	CONSTRAINT "analysis_principals_execution_id_principal_arn_pk" PRIMARY KEY("execution_id","principal_arn")
);
--> statement-breakpoint
CREATE TABLE "analysis_resources" (
	"execution_id" text NOT NULL,
	"resource_arn" text COLLATE "C" NOT NULL,
	"resource_type" text NOT NULL,
	"resource_name" text NOT NULL,
	"confidentiality" text NOT NULL,
	"data" "bytea" NOT NULL,
	"outside" "bytea" NOT NULL,
	CONSTRAINT "analysis_resources_execution_id_resource_arn_pk" PRIMARY KEY("execution_id","resource_arn")
);
--> statement-breakpoint
CREATE TABLE "analysis_results" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"analysis_time" timestamp with time zone NOT NULL,
	"results_version" text NOT NULL,
	"principals" integer NOT NULL,
	"resources" integer NOT NULL,
	"previous_execution_id" text,
	"changes" integer,
	"findings" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "findings" (
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"finding_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"severity" text NOT NULL,
	"status" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"last_execution_id" text NOT NULL,
	"detail" jsonb NOT NULL,
	CONSTRAINT "findings_customer_id_account_id_finding_id_pk" PRIMARY KEY("customer_id","account_id","finding_id")
);
--> statement-breakpoint
ALTER TABLE "access_changes" ADD CONSTRAINT "access_changes_execution_id_executions_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_principals" ADD CONSTRAINT "analysis_principals_execution_id_analysis_results_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."analysis_results"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_resources" ADD CONSTRAINT "analysis_resources_execution_id_analysis_results_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."analysis_results"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_results" ADD CONSTRAINT "analysis_results_execution_id_executions_execution_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("execution_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_changes_account_idx" ON "access_changes" USING btree ("customer_id","account_id","analysis_time","seq");--> statement-breakpoint
CREATE INDEX "analysis_results_account_idx" ON "analysis_results" USING btree ("customer_id","account_id","analysis_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "findings_account_status_idx" ON "findings" USING btree ("customer_id","account_id","status","last_seen");