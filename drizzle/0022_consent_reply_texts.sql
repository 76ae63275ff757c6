ALTER TABLE "campaign_recipients" ADD COLUMN "consent_event_id" bigint;--> statement-breakpoint
CREATE INDEX "campaign_recipients_consent_event_idx" ON "campaign_recipients" USING btree ("consent_event_id") WHERE "campaign_recipients"."consent_event_id" IS NOT NULL;--> statement-breakpoint
-- Hand-written (decision 125): texts queued before the column get their event from the dedupe key
-- they were queued under: the opt-in's welcome or "Reply Y" request by the event's id, the replies
-- by the inbound message's SID (unique among consent events).
UPDATE "campaign_recipients" r SET "consent_event_id" = e.id
FROM "consent_events" e
WHERE r.campaign_id IS NULL AND r.dedupe_key ~ '^(welcome|doi):[0-9]{1,18}$'
  AND e.id = split_part(r.dedupe_key, ':', 2)::bigint;--> statement-breakpoint
UPDATE "campaign_recipients" r SET "consent_event_id" = e.id
FROM "consent_events" e
WHERE r.campaign_id IS NULL AND r.consent_event_id IS NULL AND r.dedupe_key ~ '^(welcome|stop|help|start):.'
  AND e.inbound_message_sid = substr(r.dedupe_key, strpos(r.dedupe_key, ':') + 1);
