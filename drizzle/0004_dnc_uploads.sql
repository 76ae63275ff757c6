CREATE TABLE "dnc_upload_rows" (
	"upload_id" bigint NOT NULL,
	"phone" char(10) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dnc_uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"mode" text NOT NULL,
	"data_date" date NOT NULL,
	"state" text DEFAULT 'importing' NOT NULL,
	"bytes_total" bigint NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"bad_lines" integer DEFAULT 0 NOT NULL,
	"bad_line_samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sha256" text,
	"error" text,
	"actor" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dnc_upload_rows" ADD CONSTRAINT "dnc_upload_rows_upload_id_dnc_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."dnc_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dnc_upload_rows_upload_idx" ON "dnc_upload_rows" USING btree ("upload_id");