-- Consent evidence is append-only: corrections are new events, never edits.
CREATE FUNCTION consent_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consent_events is append-only (% refused)', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER consent_events_append_only
  BEFORE UPDATE OR DELETE ON consent_events
  FOR EACH ROW EXECUTE FUNCTION consent_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER consent_events_no_truncate
  BEFORE TRUNCATE ON consent_events
  FOR EACH STATEMENT EXECUTE FUNCTION consent_events_refuse_change();
