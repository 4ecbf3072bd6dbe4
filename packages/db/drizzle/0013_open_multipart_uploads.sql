CREATE TABLE "open_multipart_uploads" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"region" text NOT NULL,
	"expected_bucket_owner" text,
	"execution_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "open_multipart_uploads_execution_idx" ON "open_multipart_uploads" USING btree ("execution_id");