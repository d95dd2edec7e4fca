CREATE TABLE "person_records" (
	"identity_id" bigint PRIMARY KEY NOT NULL,
	"record" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_records" ADD CONSTRAINT "person_records_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A suppression added, changed or removed drops the stored records of the people holding that e-mail (by address or
-- hash) or phone: their lookups then build the record from the tables, where the suppression list is applied, until
-- an import of them stores it again (decision 0017).
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
-- The records of the people already loaded, as record-sql.ts builds them on the day of this migration.
INSERT INTO "person_records" ("identity_id", "record")
SELECT p.id, json_build_object(
  'id', p.id, 'firstName', p.first_name, 'middleName', p.middle_name, 'lastName', p.last_name,
  'suffix', p.suffix, 'gender', p.gender, 'birthYear', p.birth_year, 'address', p.address, 'city', p.city,
  'state', p.state, 'zip', p.zip, 'zip4', p.zip4, 'firstSeen', p.first_seen, 'lastSeen', p.last_seen,
  'emails', coalesce((select json_agg(json_build_object('address', e.address, 'md5', e.md5, 'sha256', e.sha256, 'firstSeen', e.first_seen, 'lastSeen', e.last_seen) order by e.last_seen desc nulls last, e.address) from person_emails e
     where e.identity_id = p.id and not exists (select 1 from suppressions s where (s.kind, s.value) in (('email', e.address), ('md5', e.md5), ('sha256', e.sha256)))), '[]'::json),
  'phones', coalesce((select json_agg(json_build_object('number', f.number, 'type', f.type, 'carrier', f.carrier, 'doNotCall', f.do_not_call, 'firstSeen', f.first_seen, 'lastSeen', f.last_seen) order by f.last_seen desc nulls last, f.number) from person_phones f
     where f.identity_id = p.id and not exists (select 1 from suppressions s where (s.kind, s.value) in (('phone', f.number)))), '[]'::json),
  'ips', coalesce((select json_agg(json_build_object('ip', host(i.ip), 'firstSeen', i.first_seen, 'lastSeen', i.last_seen) order by i.last_seen desc nulls last, i.ip) from person_ips i
     where i.identity_id = p.id), '[]'::json),
  'devices', coalesce((select json_agg(json_build_object('deviceId', d.device_id, 'type', d.type, 'firstSeen', d.first_seen, 'lastSeen', d.last_seen) order by d.last_seen desc nulls last, d.device_id) from person_devices d
     where d.identity_id = p.id), '[]'::json),
  'vehicles', coalesce((select json_agg(json_build_object('vin', v.vin, 'year', v.year, 'make', v.make, 'model', v.model, 'firstSeen', v.first_seen, 'lastSeen', v.last_seen) order by v.last_seen desc nulls last, v.vin) from person_vehicles v
     where v.identity_id = p.id), '[]'::json),
  'properties', coalesce((select json_agg(json_build_object('type', r.type, 'value', r.value, 'ownerOccupied', r.owner_occupied, 'firstSeen', r.first_seen, 'lastSeen', r.last_seen) order by r.seq) from person_properties r
     where r.identity_id = p.id), '[]'::json),
  'finances', (select json_build_object('income', x.income, 'netWorth', x.net_worth, 'credit', x.credit)
     from person_finances x where x.identity_id = p.id),
  'companies', coalesce((select json_agg(json_build_object('name', c.name, 'domain', c.domain, 'title', c.title, 'firstSeen', c.first_seen, 'lastSeen', c.last_seen) order by c.seq) from person_companies c
     where c.identity_id = p.id), '[]'::json),
  'behaviors', coalesce((select json_agg(json_build_object('category', b.category, 'name', b.name, 'firstSeen', b.first_seen, 'lastSeen', b.last_seen) order by b.category, b.name) from person_behaviors b
     where b.identity_id = p.id), '[]'::json),
  'data', (coalesce((select jsonb_object_agg(k.key, k.value) from person_data k where k.identity_id = p.id), '{}'::jsonb)
     || coalesce((select jsonb_build_object('previousAddress', a.address, 'previousCity', a.city,
          'previousState', a.state, 'previousZip', a.zip)
        from person_addresses a where a.identity_id = p.id and a.seq = 1), '{}'::jsonb))::json)
FROM people p;
