CREATE TABLE "usage_rollup_watermark" (
	"id" integer PRIMARY KEY NOT NULL,
	"txid" bigint NOT NULL
);
--> statement-breakpoint
-- Without a default first, so existing rows (already in the rollups) stay null and the table is not rewritten.
ALTER TABLE "usage" ADD COLUMN "txid" bigint;--> statement-breakpoint
ALTER TABLE "usage" ALTER COLUMN "txid" SET DEFAULT (pg_current_xact_id()::text::bigint);--> statement-breakpoint
CREATE INDEX "usage_txid_idx" ON "usage" USING btree ("txid");--> statement-breakpoint
-- Every row written from now on (a transaction after this one) is in the tail until the aggregator counts it.
INSERT INTO "usage_rollup_watermark" ("id", "txid") VALUES (1, pg_current_xact_id()::text::bigint);--> statement-breakpoint
-- The usage rows not yet in the rollups (decision 0045). STABLE: it reads in its caller's snapshot, so a query that
-- adds it to the rollups sees the watermark and the rollups of one moment. Planned for the watermark's value (the
-- pool's connections plan generically, decision 0017), so the txid index finds the few rows past it.
CREATE FUNCTION usage_tail() RETURNS SETOF usage LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  mark bigint;
BEGIN
  SELECT txid INTO mark FROM usage_rollup_watermark WHERE id = 1;
  RETURN QUERY SELECT * FROM usage WHERE txid >= mark;
END
$$;--> statement-breakpoint
-- What every reader of totals reads: the rollups, plus the tail as rollup rows of one request each, so a call
-- counts in every report the moment its usage row commits, before and after the aggregator runs.
CREATE VIEW usage_totals AS
SELECT bucket, at, organization_id, user_id, key_id, method, path, requests, inputs, inputs_with_identities, identities, identities_with_behaviors, identities_with_data, identities_with_devices, identities_with_emails, identities_with_ips, identities_with_phones, identities_with_properties, identities_with_vehicles, identities_with_finances, identities_with_companies, behaviors, devices, emails, ips, phones, properties, vehicles, companies, best_match_scores, milliseconds, cost
FROM usage_rollups
UNION ALL
SELECT b.bucket, date_trunc(b.unit, u.at, 'UTC'), coalesce(u.organization_id, 0), u.user_id,
  CASE WHEN b.apart THEN coalesce(u.key_id, '') ELSE '*' END, CASE WHEN b.apart THEN u.method ELSE '*' END,
  CASE WHEN b.apart THEN u.path ELSE '*' END, 1::bigint, u.inputs::bigint, u.inputs_with_identities::bigint, u.identities::bigint, u.identities_with_behaviors::bigint, u.identities_with_data::bigint, u.identities_with_devices::bigint, u.identities_with_emails::bigint, u.identities_with_ips::bigint, u.identities_with_phones::bigint, u.identities_with_properties::bigint, u.identities_with_vehicles::bigint, u.identities_with_finances::bigint, u.identities_with_companies::bigint, u.behaviors::bigint, u.devices::bigint, u.emails::bigint, u.ips::bigint, u.phones::bigint, u.properties::bigint, u.vehicles::bigint, u.companies::bigint, u.best_match_scores::bigint, u.milliseconds::bigint, u.cost::numeric(18, 6)
FROM usage_tail() u
CROSS JOIN (VALUES ('hour', 'hour', true), ('day', 'day', true), ('hour-user', 'hour', false),
  ('day-user', 'day', false)) AS b(bucket, unit, apart);
