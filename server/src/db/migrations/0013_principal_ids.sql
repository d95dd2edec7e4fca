-- A template's adminIds (spec §3) hold user and organization ids in one list. From here on both kinds of id come from
-- one sequence, so an id names a user or an organization, never both (decision 0023). Ids issued before may name
-- both; the templates API refuses to grant such an id.
CREATE SEQUENCE IF NOT EXISTS "principal_id_seq" AS integer;
--> statement-breakpoint
SELECT setval('principal_id_seq', greatest((SELECT coalesce(max(id), 0) FROM users), (SELECT coalesce(max(id), 0) FROM organizations)) + 1, false);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "id" SET DEFAULT nextval('principal_id_seq');
--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "id" SET DEFAULT nextval('principal_id_seq');
