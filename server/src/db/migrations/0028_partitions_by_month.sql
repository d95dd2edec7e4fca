-- Usage and the lookup audit trail partitioned by month (decision 0047): retention drops whole months. Each table is
-- made anew as a partitioned table, its rows copied, the old one dropped; indexes are made after the copy.
DROP VIEW usage_totals;--> statement-breakpoint
DROP FUNCTION usage_tail();--> statement-breakpoint
ALTER TABLE usage RENAME TO usage_before_partitions;--> statement-breakpoint
ALTER SEQUENCE usage_id_seq OWNED BY NONE;--> statement-breakpoint
CREATE TABLE usage (
  LIKE usage_before_partitions INCLUDING DEFAULTS,
  month date NOT NULL DEFAULT (date_trunc('month', now() AT TIME ZONE 'UTC'))::date,
  CONSTRAINT usage_month_of_at CHECK (month = (date_trunc('month', at AT TIME ZONE 'UTC'))::date)
) PARTITION BY RANGE (month);--> statement-breakpoint
DO $$
DECLARE
  m date;
  last date;
BEGIN
  SELECT least(
    coalesce((date_trunc('month', min(at) AT TIME ZONE 'UTC'))::date, (date_trunc('month', now() AT TIME ZONE 'UTC'))::date),
    (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date)
  INTO m FROM usage_before_partitions;
  last := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months')::date;
  WHILE m <= last LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF usage FOR VALUES FROM (%L) TO (%L)',
      'usage_' || to_char(m, 'YYYY_MM'), m, (m + interval '1 month')::date);
    m := (m + interval '1 month')::date;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE TABLE usage_default PARTITION OF usage DEFAULT;--> statement-breakpoint
INSERT INTO usage (id, at, request_id, user_id, organization_id, key_id, method, path, status, inputs, inputs_with_identities, identities, identities_with_behaviors, identities_with_data, identities_with_devices, identities_with_emails, identities_with_ips, identities_with_phones, identities_with_properties, identities_with_vehicles, identities_with_finances, identities_with_companies, behaviors, devices, emails, ips, phones, properties, vehicles, companies, best_match_scores, milliseconds, cost, txid, request_hash, month)
SELECT id, at, request_id, user_id, organization_id, key_id, method, path, status, inputs, inputs_with_identities, identities, identities_with_behaviors, identities_with_data, identities_with_devices, identities_with_emails, identities_with_ips, identities_with_phones, identities_with_properties, identities_with_vehicles, identities_with_finances, identities_with_companies, behaviors, devices, emails, ips, phones, properties, vehicles, companies, best_match_scores, milliseconds, cost, txid, request_hash, (date_trunc('month', at AT TIME ZONE 'UTC'))::date FROM usage_before_partitions;--> statement-breakpoint
DROP TABLE usage_before_partitions;--> statement-breakpoint
ALTER SEQUENCE usage_id_seq OWNED BY usage.id;--> statement-breakpoint
ALTER TABLE usage ADD CONSTRAINT usage_id_month_pk PRIMARY KEY (id, month);--> statement-breakpoint
CREATE UNIQUE INDEX usage_request_idx ON usage USING btree (request_id, month);--> statement-breakpoint
CREATE INDEX usage_organization_at_idx ON usage USING btree (organization_id, at);--> statement-breakpoint
CREATE INDEX usage_user_at_idx ON usage USING btree (user_id, at);--> statement-breakpoint
CREATE INDEX usage_at_idx ON usage USING btree (at);--> statement-breakpoint
CREATE INDEX usage_txid_idx ON usage USING btree (txid);--> statement-breakpoint
ALTER TABLE lookup_audit RENAME TO lookup_audit_before_partitions;--> statement-breakpoint
ALTER SEQUENCE lookup_audit_id_seq OWNED BY NONE;--> statement-breakpoint
CREATE TABLE lookup_audit (LIKE lookup_audit_before_partitions INCLUDING DEFAULTS) PARTITION BY RANGE (at);--> statement-breakpoint
DO $$
DECLARE
  m date;
  last date;
BEGIN
  SELECT least(
    coalesce((date_trunc('month', min(at) AT TIME ZONE 'UTC'))::date, (date_trunc('month', now() AT TIME ZONE 'UTC'))::date),
    (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date)
  INTO m FROM lookup_audit_before_partitions;
  last := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months')::date;
  WHILE m <= last LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF lookup_audit FOR VALUES FROM (%L) TO (%L)',
      'lookup_audit_' || to_char(m, 'YYYY_MM'), (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
    m := (m + interval '1 month')::date;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE TABLE lookup_audit_default PARTITION OF lookup_audit DEFAULT;--> statement-breakpoint
INSERT INTO lookup_audit (id, at, request_id, user_id, organization_id, key_id, method, path, input, value_hmacs, identity_ids) SELECT id, at, request_id, user_id, organization_id, key_id, method, path, input, value_hmacs, identity_ids FROM lookup_audit_before_partitions;--> statement-breakpoint
DROP TABLE lookup_audit_before_partitions;--> statement-breakpoint
ALTER SEQUENCE lookup_audit_id_seq OWNED BY lookup_audit.id;--> statement-breakpoint
ALTER TABLE lookup_audit ADD CONSTRAINT lookup_audit_id_at_pk PRIMARY KEY (id, at);--> statement-breakpoint
CREATE INDEX lookup_audit_at_idx ON lookup_audit USING btree (at);--> statement-breakpoint
CREATE INDEX lookup_audit_values_idx ON lookup_audit USING gin (value_hmacs);--> statement-breakpoint
CREATE INDEX lookup_audit_identities_idx ON lookup_audit USING gin (identity_ids);--> statement-breakpoint
CREATE FUNCTION usage_tail() RETURNS SETOF usage LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  mark bigint;
BEGIN
  SELECT txid INTO mark FROM usage_rollup_watermark WHERE id = 1;
  RETURN QUERY SELECT * FROM usage WHERE txid >= mark;
END
$$;--> statement-breakpoint
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
