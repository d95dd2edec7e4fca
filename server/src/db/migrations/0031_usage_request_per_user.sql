DROP INDEX "usage_request_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "usage_request_idx" ON "usage" USING btree ("user_id","request_id","month");