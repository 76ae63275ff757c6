CREATE TABLE "analytics_visit_entries" (
	"day" date NOT NULL,
	"visitor" "bytea" NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"channel" text NOT NULL,
	"referrer" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"medium" text DEFAULT '' NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"click_ids" text DEFAULT '' NOT NULL,
	"sub1" text DEFAULT '' NOT NULL,
	"sub2" text DEFAULT '' NOT NULL,
	"sub3" text DEFAULT '' NOT NULL,
	"sub4" text DEFAULT '' NOT NULL,
	"sub5" text DEFAULT '' NOT NULL,
	CONSTRAINT "analytics_visit_entries_day_visitor_pk" PRIMARY KEY("day","visitor")
);
--> statement-breakpoint
CREATE TABLE "subscription_attributions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"consent_event_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"basis" text NOT NULL,
	"form_path" text DEFAULT '' NOT NULL,
	"entry_path" text DEFAULT '' NOT NULL,
	"entry_at" timestamp with time zone,
	"visit_channel" text NOT NULL,
	"referrer" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"click_ids" text DEFAULT '' NOT NULL,
	"sub1" text DEFAULT '' NOT NULL,
	"sub2" text DEFAULT '' NOT NULL,
	"sub3" text DEFAULT '' NOT NULL,
	"sub4" text DEFAULT '' NOT NULL,
	"sub5" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_attributions" ADD CONSTRAINT "subscription_attributions_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_attributions" ADD CONSTRAINT "subscription_attributions_consent_event_id_consent_events_id_fk" FOREIGN KEY ("consent_event_id") REFERENCES "public"."consent_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_attributions_consent_event" ON "subscription_attributions" USING btree ("consent_event_id");--> statement-breakpoint
CREATE INDEX "subscription_attributions_subscriber_idx" ON "subscription_attributions" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "subscription_attributions_created_at_idx" ON "subscription_attributions" USING btree ("created_at");