CREATE TABLE "email_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"email" text NOT NULL,
	"detail" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_confirmations" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_issues" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"preview_text" text DEFAULT '' NOT NULL,
	"intro_markdown" text DEFAULT '' NOT NULL,
	"article_slugs" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"scheduled_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "headers" text;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "email_token" text;--> statement-breakpoint
ALTER TABLE "newsletter_confirmations" ADD CONSTRAINT "newsletter_confirmations_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_events_provider_event" ON "email_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "newsletter_confirmations_subscriber_idx" ON "newsletter_confirmations" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_email_token_unique" ON "subscribers" USING btree ("email_token");--> statement-breakpoint
-- Every e-mail subscriber gets the secret of their unsubscribe link (two v4 UUIDs: 244 random bits).
UPDATE "subscribers" SET "email_token" = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE "channel" = 'email' AND "email_token" IS NULL;
