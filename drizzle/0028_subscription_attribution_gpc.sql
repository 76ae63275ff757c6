ALTER TABLE "conversion_postbacks" ADD COLUMN "skip_reason" text;--> statement-breakpoint
ALTER TABLE "subscription_attributions" ADD COLUMN "gpc" boolean DEFAULT false NOT NULL;