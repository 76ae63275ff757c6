CREATE TABLE "import_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" uuid NOT NULL,
	"old_url" text DEFAULT '' NOT NULL,
	"content_hash" text NOT NULL,
	"written_version" integer,
	"run_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_report_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" bigint NOT NULL,
	"phase" text DEFAULT 'import' NOT NULL,
	"item" text NOT NULL,
	"old_url" text DEFAULT '' NOT NULL,
	"outcome" text NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"file_bytes" bigint NOT NULL,
	"site_url" text DEFAULT '' NOT NULL,
	"options" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"dry_run" jsonb,
	"items_total" integer DEFAULT 0 NOT NULL,
	"items_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"kept_edited" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "redirects" (
	"path" text PRIMARY KEY NOT NULL,
	"target" text NOT NULL,
	"origin" text NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_report_lines" ADD CONSTRAINT "import_report_lines_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_items_source_key" ON "import_items" USING btree ("source","kind","source_id");--> statement-breakpoint
CREATE INDEX "import_items_target_idx" ON "import_items" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "import_report_lines_run_idx" ON "import_report_lines" USING btree ("run_id","phase","id");--> statement-breakpoint
CREATE INDEX "import_runs_status_idx" ON "import_runs" USING btree ("status","id");