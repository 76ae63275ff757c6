CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"before" text,
	"after" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"action" text NOT NULL,
	"phone_e164" text,
	"phone_raw" text,
	"email" text,
	"first_name" text,
	"last_name" text,
	"consent_text" text,
	"consent_version" text,
	"consent_text_sha256" text,
	"terms_text" text,
	"terms_version" text,
	"sms_checkbox" boolean,
	"terms_checkbox" boolean,
	"ip" text,
	"user_agent" text,
	"accept_language" text,
	"page_url" text,
	"referrer" text,
	"click_id" text,
	"source" text,
	"dnc_policy" text,
	"dnc_result" text,
	"dnc_data_date" date,
	"inbound_message_sid" text,
	"inbound_body" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dnc_imports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"mode" text NOT NULL,
	"data_date" date NOT NULL,
	"lines" integer NOT NULL,
	"changed" integer NOT NULL,
	"bad_lines" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dnc_numbers" (
	"phone" char(10) NOT NULL,
	"source" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"welcome_message" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to_phone" text NOT NULL,
	"body" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"provider_id" text,
	"provider_status" text,
	"error" text,
	"dedupe_key" text NOT NULL,
	"subscriber_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"phone_e164" text,
	"email" text,
	"phone_raw" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"click_id" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscribers_identity" CHECK (("subscribers"."channel" = 'sms' AND "subscribers"."phone_e164" ~ '^\+1[2-9][0-9]{9}$') OR ("subscribers"."channel" = 'email' AND "subscribers"."email" IS NOT NULL AND "subscribers"."email" = lower("subscribers"."email")))
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","occurred_at");--> statement-breakpoint
CREATE INDEX "consent_events_subscriber_idx" ON "consent_events" USING btree ("subscriber_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dnc_numbers_phone_source" ON "dnc_numbers" USING btree ("phone","source");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_messages_dedupe_key" ON "sms_messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "sms_messages_due_idx" ON "sms_messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_sms_phone_unique" ON "subscribers" USING btree ("phone_e164") WHERE "subscribers"."channel" = 'sms';--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_email_unique" ON "subscribers" USING btree ("email") WHERE "subscribers"."channel" = 'email';--> statement-breakpoint
CREATE INDEX "subscribers_created_at_idx" ON "subscribers" USING btree ("created_at");