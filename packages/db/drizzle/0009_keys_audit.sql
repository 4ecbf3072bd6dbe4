CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" text,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"route" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" integer NOT NULL,
	"request_id" text,
	"changes" jsonb NOT NULL,
	"previous_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "name" text;--> statement-breakpoint
-- Keys made before names and scopes keep working as they did: all four scopes, no expiry.
UPDATE "api_keys" SET "name" = 'key ' || "id";--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" text[] DEFAULT '{read,trigger,configure,keys}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_events_tenant_id_idx" ON "audit_events" USING btree ("tenant","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_tenant_key_idx" ON "audit_events" USING btree ("tenant","key_id","id" DESC NULLS LAST) WHERE key_id is not null;--> statement-breakpoint
-- Revocation is soft now (an update): it, an expiry or a change of scopes reaches the other
-- processes' key caches through the same notification a deleted key sends (migration 0001).
CREATE TRIGGER "api_keys_notify_change" AFTER UPDATE ON "api_keys"
  FOR EACH ROW WHEN (
    OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
    OR OLD.permissions IS DISTINCT FROM NEW.permissions
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
  ) EXECUTE FUNCTION "sightline_notify_key_revoked"();
