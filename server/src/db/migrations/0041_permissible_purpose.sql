-- Permissible purpose (issue 34 item 2): why a regulated buyer looked someone up (GLBA, DPPA, FCRA). A contract lists
-- the purposes its organization may use (NULL or empty: none is required, as for every contract before this); a key
-- declares a default; the purpose a lookup was made for is kept on its audit rows, and a bulk job keeps the one it
-- was created with for its rows. The ids are common/purposes.ts's; the server checks them, not the database.
ALTER TABLE "contracts" ADD COLUMN "purposes" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "default_purpose" text;--> statement-breakpoint
-- On the partitioned parent: every month's partition and the default one take the column.
ALTER TABLE "lookup_audit" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "purpose" text;--> statement-breakpoint
-- A change subscription delivers records as a lookup does: it keeps the purpose it was made for, and its events go
-- out only while its contract allows that purpose.
ALTER TABLE "identity_subscriptions" ADD COLUMN "purpose" text;
