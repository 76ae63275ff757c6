CREATE TABLE "ad_costs" (
	"day" date NOT NULL,
	"source" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"sub_id" text DEFAULT '' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_costs_day_source_campaign_sub_id_pk" PRIMARY KEY("day","source","campaign","sub_id"),
	CONSTRAINT "ad_costs_amount_cents_check" CHECK ("ad_costs"."amount_cents" >= 0)
);
