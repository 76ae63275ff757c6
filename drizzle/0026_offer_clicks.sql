CREATE TABLE "offer_clicks" (
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"sub1" text DEFAULT '' NOT NULL,
	"sub2" text DEFAULT '' NOT NULL,
	"sub3" text DEFAULT '' NOT NULL,
	"sub4" text DEFAULT '' NOT NULL,
	"sub5" text DEFAULT '' NOT NULL,
	"machine" text DEFAULT '' NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "offer_clicks_pk" PRIMARY KEY("day","channel","utm_source","utm_medium","utm_campaign","sub1","sub2","sub3","sub4","sub5","machine")
);
