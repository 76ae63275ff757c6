CREATE TABLE "consent_chain" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_chain_heads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_chain_pending" (
	"event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "consent_chain_event_id" ON "consent_chain" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "consent_chain_pending_event_id" ON "consent_chain_pending" USING btree ("event_id");--> statement-breakpoint
-- Hand-written (decision 069): every consent event is queued for the chain in the statement that
-- inserts it, so an event committed by any process, at any time, is sealed.
CREATE FUNCTION consent_events_queue_for_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- db:import loads the queue as it was exported (and the chain with it): nothing to add then.
  IF current_setting('app.importing', true) = 'on' THEN
    RETURN NULL;
  END IF;
  INSERT INTO consent_chain_pending (event_id) VALUES (NEW.id);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER consent_events_chain_queue
  AFTER INSERT ON consent_events
  FOR EACH ROW EXECUTE FUNCTION consent_events_queue_for_chain();--> statement-breakpoint
-- Data move: the events recorded before the chain existed are sealed first, in id order.
INSERT INTO consent_chain_pending (event_id) SELECT id FROM consent_events ORDER BY id;--> statement-breakpoint
-- The chain and its signed heads are evidence too: append-only.
CREATE TRIGGER consent_chain_append_only
  BEFORE UPDATE OR DELETE ON consent_chain
  FOR EACH ROW EXECUTE FUNCTION consent_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER consent_chain_no_truncate
  BEFORE TRUNCATE ON consent_chain
  FOR EACH STATEMENT EXECUTE FUNCTION consent_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER consent_chain_heads_append_only
  BEFORE UPDATE OR DELETE ON consent_chain_heads
  FOR EACH ROW EXECUTE FUNCTION consent_events_refuse_change();
