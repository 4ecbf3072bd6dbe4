-- Every write to a partner's configuration notifies listeners (API processes caching reads)
-- with the partner ID; a deleted API key notifies its ID. Delivered when the transaction commits.
CREATE FUNCTION "sightline_notify_partner_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sightline_partner_changed', COALESCE(NEW.partner_id, OLD.partner_id));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "partners_notify" AFTER INSERT OR UPDATE OR DELETE ON "partners"
  FOR EACH ROW EXECUTE FUNCTION "sightline_notify_partner_change"();
--> statement-breakpoint
CREATE TRIGGER "partner_customers_notify" AFTER INSERT OR UPDATE OR DELETE ON "partner_customers"
  FOR EACH ROW EXECUTE FUNCTION "sightline_notify_partner_change"();
--> statement-breakpoint
CREATE TRIGGER "monitored_accounts_notify" AFTER INSERT OR UPDATE OR DELETE ON "monitored_accounts"
  FOR EACH ROW EXECUTE FUNCTION "sightline_notify_partner_change"();
--> statement-breakpoint
CREATE FUNCTION "sightline_notify_key_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sightline_api_key_revoked', OLD.id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "api_keys_notify" AFTER DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "sightline_notify_key_revoked"();
