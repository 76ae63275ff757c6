DROP INDEX "campaign_recipients_subscriber_sent_idx";--> statement-breakpoint
DROP INDEX "campaign_recipients_provider_idx";--> statement-breakpoint
CREATE INDEX "campaign_recipients_campaign_state_idx" ON "campaign_recipients" USING btree ("campaign_id","state");--> statement-breakpoint
CREATE INDEX "campaign_recipients_subscriber_sent_idx" ON "campaign_recipients" USING btree ("subscriber_id","sent_at") WHERE "campaign_recipients"."sent_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "campaign_recipients_provider_idx" ON "campaign_recipients" USING btree ("provider_id") WHERE "campaign_recipients"."provider_id" IS NOT NULL;