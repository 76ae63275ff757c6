DROP INDEX "campaign_recipients_due_idx";--> statement-breakpoint
DROP INDEX "campaign_recipients_campaign_state_idx";--> statement-breakpoint
CREATE INDEX "campaign_recipients_campaign_due_idx" ON "campaign_recipients" USING btree ("campaign_id","state","next_attempt_at","id");--> statement-breakpoint
CREATE INDEX "campaign_recipients_in_flight_idx" ON "campaign_recipients" USING btree ("locked_at") WHERE "campaign_recipients"."state" = 'sending';