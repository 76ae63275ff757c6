CREATE TABLE "conversion_postbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"click_id" text NOT NULL,
	"event" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"response_status" integer,
	"error" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "confirm_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversion_postbacks" ADD CONSTRAINT "conversion_postbacks_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversion_postbacks_dedupe_key" ON "conversion_postbacks" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "conversion_postbacks_due_idx" ON "conversion_postbacks" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "conversion_postbacks_subscriber_idx" ON "conversion_postbacks" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "subscribers_pending_confirm_by_idx" ON "subscribers" USING btree ("confirm_by") WHERE "subscribers"."status" = 'pending';