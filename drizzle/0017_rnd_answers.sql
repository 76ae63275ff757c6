CREATE TABLE "rnd_answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" char(10) NOT NULL,
	"asked_date" date NOT NULL,
	"answer" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rnd_answers_phone_idx" ON "rnd_answers" USING btree ("phone","asked_date");--> statement-breakpoint
ALTER TABLE "rnd_answers" ADD CONSTRAINT "rnd_answers_answer" CHECK ("answer" IN ('yes', 'no', 'no_data'));--> statement-breakpoint
ALTER TABLE "rnd_answers" ADD CONSTRAINT "rnd_answers_source" CHECK ("source" IN ('api', 'file'));--> statement-breakpoint
-- The answers are evidence on the consent certificate: append-only, like the consent events.
CREATE TRIGGER rnd_answers_append_only
  BEFORE UPDATE OR DELETE ON rnd_answers
  FOR EACH ROW EXECUTE FUNCTION consent_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER rnd_answers_no_truncate
  BEFORE TRUNCATE ON rnd_answers
  FOR EACH STATEMENT EXECUTE FUNCTION consent_events_refuse_change();
