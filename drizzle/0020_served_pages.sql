CREATE TABLE "served_pages" (
	"sha256" text PRIMARY KEY NOT NULL,
	"body" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"first_served_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD COLUMN "served_page_sha256" text;--> statement-breakpoint
-- Evidence, like the consent events: append-only (decision 079).
CREATE TRIGGER served_pages_append_only
  BEFORE UPDATE OR DELETE ON served_pages
  FOR EACH ROW EXECUTE FUNCTION consent_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER served_pages_no_truncate
  BEFORE TRUNCATE ON served_pages
  FOR EACH STATEMENT EXECUTE FUNCTION consent_events_refuse_change();
