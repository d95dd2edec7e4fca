-- Asynchronous bulk jobs (issue 33 item 3, decision 0068): a job, its input kept as chunks of parsed CSV records, and
-- its result as one piece per finished chunk (bytes: cells are echoed as sent, a NUL included, as the PUT echoes
-- them). A chunk's result, its usage and the job's progress commit together.
CREATE TABLE "bulk_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"organization_id" integer,
	"user_id" integer NOT NULL,
	"key_id" text,
	"caller" jsonb NOT NULL,
	"endpoint" text NOT NULL,
	"options" jsonb NOT NULL,
	"format" text NOT NULL,
	"header" jsonb NOT NULL,
	"columns" jsonb,
	"status" text DEFAULT 'uploading' NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"total_chunks" integer DEFAULT 0 NOT NULL,
	"chunks_done" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"rows_matched" integer DEFAULT 0 NOT NULL,
	"rows_failed" integer DEFAULT 0 NOT NULL,
	"identities" integer DEFAULT 0 NOT NULL,
	"cost" numeric(14, 6) DEFAULT 0 NOT NULL,
	"busy_ms" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "bulk_jobs_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_job_inputs" (
	"job_id" bigint NOT NULL,
	"chunk" integer NOT NULL,
	"records" text NOT NULL,
	CONSTRAINT "bulk_job_inputs_pk" PRIMARY KEY("job_id","chunk")
);
--> statement-breakpoint
CREATE TABLE "bulk_job_results" (
	"job_id" bigint NOT NULL,
	"chunk" integer NOT NULL,
	"body" bytea NOT NULL,
	CONSTRAINT "bulk_job_results_pk" PRIMARY KEY("job_id","chunk")
);
--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_job_inputs" ADD CONSTRAINT "bulk_job_inputs_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_job_results" ADD CONSTRAINT "bulk_job_results_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_organization_idx" ON "bulk_jobs" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "bulk_jobs_user_idx" ON "bulk_jobs" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "bulk_jobs_runnable_idx" ON "bulk_jobs" USING btree ("id") WHERE "status" in ('queued', 'running');
