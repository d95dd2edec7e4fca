CREATE TABLE "person_records" (
	"identity_id" bigint PRIMARY KEY NOT NULL,
	"version" smallint NOT NULL,
	"record" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_records" ADD CONSTRAINT "person_records_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A suppression added, changed or removed drops the stored records of the people holding that e-mail (by address or
-- hash) or phone: their lookups then build the record from the tables, where the suppression list is applied, until
-- an import of them stores it again (decision 0017). ALWAYS: also when rows arrive by replication or a restore.
CREATE FUNCTION "person_records_forget"(k text, v text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM person_records r WHERE r.identity_id IN (
    SELECT e.identity_id FROM person_emails e WHERE k = 'email' AND e.address = v
    UNION ALL SELECT e.identity_id FROM person_emails e WHERE k = 'md5' AND e.md5 = v
    UNION ALL SELECT e.identity_id FROM person_emails e WHERE k = 'sha256' AND e.sha256 = v
    UNION ALL SELECT f.identity_id FROM person_phones f WHERE k = 'phone' AND f.number = v)
$$;--> statement-breakpoint
CREATE FUNCTION "suppressions_forget_records"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM person_records_forget(OLD.kind, OLD.value); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM person_records_forget(NEW.kind, NEW.value); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "suppressions_forget_records" AFTER INSERT OR UPDATE OR DELETE ON "suppressions"
  FOR EACH ROW EXECUTE FUNCTION "suppressions_forget_records"();--> statement-breakpoint
ALTER TABLE "suppressions" ENABLE ALWAYS TRIGGER "suppressions_forget_records";--> statement-breakpoint
-- The records of the people already loaded, version 1 as identities/record-sql.ts builds it.
insert into person_records
  (identity_id, version, record)
  select b.id, 1, b.record from (select p.id, json_build_object(
  'id', p.id, 'firstName', p.first_name, 'middleName', p.middle_name, 'lastName', p.last_name,
  'suffix', p.suffix, 'gender', p.gender, 'birthYear', p.birth_year, 'address', p.address, 'city', p.city,
  'state', p.state, 'zip', p.zip, 'zip4', p.zip4, 'firstSeen', p.first_seen, 'lastSeen', p.last_seen,
  'emails', coalesce(j_emails.v, '[]'::json),
  'phones', coalesce(j_phones.v, '[]'::json),
  'ips', coalesce(j_ips.v, '[]'::json),
  'devices', coalesce(j_devices.v, '[]'::json),
  'vehicles', coalesce(j_vehicles.v, '[]'::json),
  'properties', coalesce(j_properties.v, '[]'::json),
  'finances', coalesce(j_finances.v, null::json),
  'companies', coalesce(j_companies.v, '[]'::json),
  'behaviors', coalesce(j_behaviors.v, '[]'::json),
  'data', (coalesce(j_attributes.v, '{}'::jsonb) || coalesce(j_previous.v, '{}'::jsonb))::json) as record
from people p
left join (select e.identity_id, json_agg(json_build_object('address', e.address, 'md5', e.md5, 'sha256', e.sha256, 'firstSeen', e.first_seen, 'lastSeen', e.last_seen) order by e.last_seen desc nulls last, e.address) as v from person_emails e
      where not exists (select 1 from suppressions s where (s.kind, s.value) in (('email', e.address), ('md5', e.md5), ('sha256', e.sha256))) group by 1
    ) as j_emails on j_emails.identity_id = p.id
left join (select f.identity_id, json_agg(json_build_object('number', f.number, 'type', f.type, 'carrier', f.carrier, 'doNotCall', f.do_not_call, 'firstSeen', f.first_seen, 'lastSeen', f.last_seen) order by f.last_seen desc nulls last, f.number) as v from person_phones f
      where not exists (select 1 from suppressions s where (s.kind, s.value) in (('phone', f.number))) group by 1
    ) as j_phones on j_phones.identity_id = p.id
left join (select i.identity_id, json_agg(json_build_object('ip', host(i.ip), 'firstSeen', i.first_seen, 'lastSeen', i.last_seen) order by i.last_seen desc nulls last, i.ip) as v from person_ips i
       group by 1
    ) as j_ips on j_ips.identity_id = p.id
left join (select d.identity_id, json_agg(json_build_object('deviceId', d.device_id, 'type', d.type, 'firstSeen', d.first_seen, 'lastSeen', d.last_seen) order by d.last_seen desc nulls last, d.device_id) as v from person_devices d
       group by 1
    ) as j_devices on j_devices.identity_id = p.id
left join (select v.identity_id, json_agg(json_build_object('vin', v.vin, 'year', v.year, 'make', v.make, 'model', v.model, 'firstSeen', v.first_seen, 'lastSeen', v.last_seen) order by v.last_seen desc nulls last, v.vin) as v from person_vehicles v
       group by 1
    ) as j_vehicles on j_vehicles.identity_id = p.id
left join (select r.identity_id, json_agg(json_build_object('type', r.type, 'value', r.value, 'ownerOccupied', r.owner_occupied, 'firstSeen', r.first_seen, 'lastSeen', r.last_seen) order by r.seq) as v from person_properties r
       group by 1
    ) as j_properties on j_properties.identity_id = p.id
left join (select x.identity_id, json_build_object('income', x.income, 'netWorth', x.net_worth, 'credit', x.credit) as v from person_finances x
       
    ) as j_finances on j_finances.identity_id = p.id
left join (select c.identity_id, json_agg(json_build_object('name', c.name, 'domain', c.domain, 'title', c.title, 'firstSeen', c.first_seen, 'lastSeen', c.last_seen) order by c.seq) as v from person_companies c
       group by 1
    ) as j_companies on j_companies.identity_id = p.id
left join (select b.identity_id, json_agg(json_build_object('category', b.category, 'name', b.name, 'firstSeen', b.first_seen, 'lastSeen', b.last_seen) order by b.category, b.name) as v from person_behaviors b
       group by 1
    ) as j_behaviors on j_behaviors.identity_id = p.id
left join (select k.identity_id, jsonb_object_agg(k.key, k.value) as v from person_data k
       group by 1
    ) as j_attributes on j_attributes.identity_id = p.id
left join (select a.identity_id, jsonb_build_object('previousAddress', a.address, 'previousCity', a.city, 'previousState', a.state,
      'previousZip', a.zip) as v from person_addresses a
      where a.seq = 1 
    ) as j_previous on j_previous.identity_id = p.id
) b
  on conflict (identity_id) do update set version = excluded.version, record = excluded.record
  where person_records.version <> excluded.version or person_records.record::text <> excluded.record::text;
