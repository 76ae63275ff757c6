ALTER TABLE "campaign_recipients" ALTER COLUMN "campaign_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ALTER COLUMN "subscriber_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "kind" text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "priority" smallint GENERATED ALWAYS AS (CASE WHEN kind IN ('stop_confirmation', 'help') THEN 0 WHEN kind IN ('verification_code', 'test') THEN 1 WHEN kind IN ('welcome', 'start_confirmation', 'doi_request') THEN 2 ELSE 3 END) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "body" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Hand-written (a data move, drizzle-kit generated the rest): the texts of the old outbox move into
-- the ledger as they stand, before sms_messages is dropped. A text left `sending` by a crash is
-- asked about at the provider by the engine's in-doubt pass, like a campaign's (decision 068).
INSERT INTO "campaign_recipients" ("subscriber_id", "address", "kind", "body", "dedupe_key", "state", "attempts", "next_attempt_at", "locked_at", "provider_id", "provider_status", "error", "sent_at", "created_at", "updated_at")
SELECT "subscriber_id", "to_phone", "kind", "body", "dedupe_key", "status", "attempts", "next_attempt_at", "locked_at", "provider_id", "provider_status", "error", "sent_at", "created_at", coalesce("sent_at", "locked_at", "created_at")
FROM "sms_messages" ORDER BY "id";--> statement-breakpoint
DROP TABLE "sms_messages" CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_dedupe_key" ON "campaign_recipients" USING btree ("dedupe_key") WHERE "campaign_recipients"."dedupe_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "campaign_recipients_texts_due_idx" ON "campaign_recipients" USING btree ("priority","next_attempt_at","id") WHERE "campaign_recipients"."campaign_id" IS NULL AND "campaign_recipients"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "campaign_recipients_texts_idx" ON "campaign_recipients" USING btree ("id") WHERE "campaign_recipients"."campaign_id" IS NULL;--> statement-breakpoint
CREATE INDEX "campaign_recipients_texts_created_idx" ON "campaign_recipients" USING btree ("created_at") WHERE "campaign_recipients"."campaign_id" IS NULL;
