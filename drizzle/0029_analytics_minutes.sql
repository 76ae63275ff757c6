CREATE TABLE "analytics_minute_visitors" (
	"minute" timestamp with time zone NOT NULL,
	"visitor" "bytea" NOT NULL,
	CONSTRAINT "analytics_minute_visitors_minute_visitor_pk" PRIMARY KEY("minute","visitor")
);
--> statement-breakpoint
CREATE TABLE "analytics_minutes" (
	"minute" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_minutes_minute_path_pk" PRIMARY KEY("minute","path")
);
