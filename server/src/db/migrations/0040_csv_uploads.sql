-- Stored uploads (issue 33 item 3, decision 0068): a CSV kept a stated time (JOB_UPLOAD_HOURS) as chunks of parsed
-- records, as a job's input is kept, so jobs can be made from it by reference without sending it again. A job made
-- from one reads its chunks in place (bulk_jobs.upload_id); the upload is not deleted while such a job runs.
CREATE TABLE "csv_uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"organization_id" integer,
	"user_id" integer NOT NULL,
	"key_id" text,
	"header" jsonb NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"total_chunks" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "csv_uploads_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "csv_upload_chunks" (
	"upload_id" bigint NOT NULL,
	"chunk" integer NOT NULL,
	"records" text NOT NULL,
	CONSTRAINT "csv_upload_chunks_pk" PRIMARY KEY("upload_id","chunk")
);
--> statement-breakpoint
ALTER TABLE "csv_uploads" ADD CONSTRAINT "csv_uploads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csv_upload_chunks" ADD CONSTRAINT "csv_upload_chunks_upload_id_csv_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."csv_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csv_uploads_expires_idx" ON "csv_uploads" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "upload_id" bigint;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_upload_id_csv_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."csv_uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_upload_idx" ON "bulk_jobs" USING btree ("upload_id") WHERE "upload_id" is not null;
