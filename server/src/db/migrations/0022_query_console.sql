CREATE TABLE "query_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"cluster" text NOT NULL,
	"sql" text NOT NULL,
	"outcome" text DEFAULT 'running' NOT NULL,
	"row_count" integer,
	"ms" integer,
	"error" text,
	"backend_pid" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "query_runs_run_id_unique" UNIQUE("run_id")
);
--> statement-breakpoint
CREATE TABLE "saved_queries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"cluster" text NOT NULL,
	"sql" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_confirmations" (
	"session_id" bigint PRIMARY KEY NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "query_runs" ADD CONSTRAINT "query_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_queries" ADD CONSTRAINT "saved_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_confirmations" ADD CONSTRAINT "session_confirmations_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "query_runs_user_idx" ON "query_runs" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "saved_queries_user_idx" ON "saved_queries" USING btree ("user_id");
