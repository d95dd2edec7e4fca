-- A key's "last used" to the moment (issue 31, decision 0056): each rollup row keeps its bucket's latest call, set by
-- the aggregator with greatest(); rows rolled up before this stay null (their hour is all that is known of them).
ALTER TABLE "usage_rollups" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
-- The same view with last_at added at its end (a tail row's own time), so OR REPLACE keeps what depends on it.
CREATE OR REPLACE VIEW usage_totals AS
SELECT bucket, at, organization_id, user_id, key_id, method, path, requests, inputs, inputs_with_identities, identities, identities_with_behaviors, identities_with_data, identities_with_devices, identities_with_emails, identities_with_ips, identities_with_phones, identities_with_properties, identities_with_vehicles, identities_with_finances, identities_with_companies, behaviors, devices, emails, ips, phones, properties, vehicles, companies, best_match_scores, milliseconds, cost, last_at
FROM usage_rollups
UNION ALL
SELECT b.bucket, date_trunc(b.unit, u.at, 'UTC'), coalesce(u.organization_id, 0), u.user_id,
  CASE WHEN b.apart THEN coalesce(u.key_id, '') ELSE '*' END, CASE WHEN b.apart THEN u.method ELSE '*' END,
  CASE WHEN b.apart THEN u.path ELSE '*' END, 1::bigint, u.inputs::bigint, u.inputs_with_identities::bigint, u.identities::bigint, u.identities_with_behaviors::bigint, u.identities_with_data::bigint, u.identities_with_devices::bigint, u.identities_with_emails::bigint, u.identities_with_ips::bigint, u.identities_with_phones::bigint, u.identities_with_properties::bigint, u.identities_with_vehicles::bigint, u.identities_with_finances::bigint, u.identities_with_companies::bigint, u.behaviors::bigint, u.devices::bigint, u.emails::bigint, u.ips::bigint, u.phones::bigint, u.properties::bigint, u.vehicles::bigint, u.companies::bigint, u.best_match_scores::bigint, u.milliseconds::bigint, u.cost::numeric(18, 6), u.at
FROM usage_tail() u
CROSS JOIN (VALUES ('hour', 'hour', true), ('day', 'day', true), ('hour-user', 'hour', false),
  ('day-user', 'day', false)) AS b(bucket, unit, apart);
