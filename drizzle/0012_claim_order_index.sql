DROP INDEX "campaign_recipients_due_idx";--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" USING btree ("state","next_attempt_at","id");