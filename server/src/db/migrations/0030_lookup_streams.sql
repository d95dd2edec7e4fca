-- Streamed PUT lookups running now (issue 28 finding 14). The snapshot beside this migration also records what
-- migration 0028 did by hand (usage's month column, the partitioned tables' primary keys): no SQL for those here.
CREATE TABLE "lookup_streams" (
	"request_id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"organization_id" integer,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lookup_streams_owner_idx" ON "lookup_streams" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "lookup_streams_organization_idx" ON "lookup_streams" USING btree ("organization_id");
