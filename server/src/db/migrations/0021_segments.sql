CREATE TABLE "segments" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "segment_organizations" (
	"segment_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	CONSTRAINT "segment_organizations_segment_id_organization_id_pk" PRIMARY KEY("segment_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "segment_attributes" (
	"identity_id" bigint PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"birth_year" smallint,
	"gender" smallint NOT NULL,
	"income" smallint NOT NULL,
	"net_worth" smallint NOT NULL,
	"credit" smallint NOT NULL,
	"flags" smallint NOT NULL,
	"behaviors" bigint[] NOT NULL,
	"companies" bigint[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_organizations" ADD CONSTRAINT "segment_organizations_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_organizations" ADD CONSTRAINT "segment_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_attributes" ADD CONSTRAINT "segment_attributes_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segment_organizations_organization_idx" ON "segment_organizations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "segment_attributes_state_idx" ON "segment_attributes" USING btree ("state");--> statement-breakpoint
CREATE INDEX "segment_attributes_zip_idx" ON "segment_attributes" USING btree ("zip" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "segment_attributes_birth_year_idx" ON "segment_attributes" USING btree ("birth_year");--> statement-breakpoint
CREATE INDEX "segment_attributes_behaviors_idx" ON "segment_attributes" USING gin ("behaviors");--> statement-breakpoint
CREATE INDEX "segment_attributes_companies_idx" ON "segment_attributes" USING gin ("companies");--> statement-breakpoint
-- The flat rows of these people as the graph has them now (decision 0035); people no longer there, or suppressed,
-- lose theirs. E-mails and phones on the suppression list do not count, as lookups do not show them. The lists are
-- common/segments.ts's (GENDERS, INCOME_BANDS, NET_WORTH_BANDS, CREDIT_BANDS); flags its SEGMENT_FLAG_BITS.
CREATE FUNCTION segment_attributes_refresh(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  delete from segment_attributes a
  where a.identity_id = any(ids)
    and (not exists (select 1 from people p where p.id = a.identity_id)
      or exists (select 1 from suppressions s where s.kind = 'identity' and s.value = a.identity_id::text));
  insert into segment_attributes as t (identity_id, state, zip, birth_year, gender, income, net_worth, credit, flags,
    behaviors, companies)
  select p.id, p.state, p.zip, p.birth_year,
    coalesce(array_position(array['F', 'M'], p.gender), 0),
    coalesce(array_position(array['Under $15K', '$15K-$25K', '$25K-$35K', '$35K-$50K', '$50K-$75K', '$75K-$100K',
      '$100K-$150K', '$150K-$250K', '$250K+'], x.income), 0),
    coalesce(array_position(array['Less than $1', '$1-$25K', '$25K-$50K', '$50K-$100K', '$100K-$250K', '$250K-$500K',
      '$500K-$1M', '$1M-$2.5M', '$2.5M+'], x.net_worth), 0),
    coalesce(array_position(array['Poor (300-579)', 'Fair (580-669)', 'Good (670-739)', 'Very Good (740-799)',
      'Excellent (800-850)'], x.credit), 0),
    (case when exists (select 1 from person_properties r where r.identity_id = p.id and r.owner_occupied)
        or exists (select 1 from person_data k where k.identity_id = p.id and k.key = 'homeOwner' and k.value = 'Owner')
      then 1 else 0 end
    + case when exists (select 1 from person_emails e where e.identity_id = p.id and not exists (select 1
        from suppressions s where (s.kind, s.value) in (('email', e.address), ('md5', e.md5), ('sha256', e.sha256))))
      then 2 else 0 end
    + case when exists (select 1 from person_phones f where f.identity_id = p.id and not exists (select 1
        from suppressions s where s.kind = 'phone' and s.value = f.number))
      then 4 else 0 end
    + case when exists (select 1 from person_devices d where d.identity_id = p.id) then 8 else 0 end
    + case when exists (select 1 from person_vehicles v where v.identity_id = p.id) then 16 else 0 end)::smallint,
    array(select hashtextextended(b.category, 0) from person_behaviors b where b.identity_id = p.id
      union select hashtextextended(b.category || chr(31) || b.name, 0) from person_behaviors b
      where b.identity_id = p.id),
    array(select distinct hashtextextended(lower(c.name), 0) from person_companies c where c.identity_id = p.id)
  from people p left join person_finances x on x.identity_id = p.id
  where p.id = any(ids)
    and not exists (select 1 from suppressions s where s.kind = 'identity' and s.value = p.id::text)
  on conflict (identity_id) do update set state = excluded.state, zip = excluded.zip,
    birth_year = excluded.birth_year, gender = excluded.gender, income = excluded.income,
    net_worth = excluded.net_worth, credit = excluded.credit, flags = excluded.flags,
    behaviors = excluded.behaviors, companies = excluded.companies
  where row(t.*) is distinct from row(excluded.*);
$$;
--> statement-breakpoint
-- The people a change to these suppressions (kind, value pairs) concerns: the person suppressed, the holders of
-- the e-mail (by address or hash) or phone.
CREATE FUNCTION segment_suppressed_people(kinds text[], vals text[]) RETURNS bigint[] LANGUAGE sql AS $$
  with c as (select * from unnest(kinds, vals) as c(kind, value))
  select array(
    select p.id from c join people p
      on c.kind = 'identity' and p.id = case when c.value ~ '^[0-9]{1,18}$' then c.value::bigint end
    union select e.identity_id from c join person_emails e on c.kind = 'email' and e.address = c.value
    union select e.identity_id from c join person_emails e on c.kind = 'md5' and e.md5 = c.value
    union select e.identity_id from c join person_emails e on c.kind = 'sha256' and e.sha256 = c.value
    union select f.identity_id from c join person_phones f on c.kind = 'phone' and f.number = c.value);
$$;
--> statement-breakpoint
-- Every writer of the graph stores the lookup records of the people it changed (decision 0017): the flat rows
-- follow those writes, and the suppressions' own, a statement at a time.
CREATE FUNCTION segment_attributes_follow() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_table_name = 'person_records' then
    if tg_op = 'DELETE' then
      perform segment_attributes_refresh(array(select o.identity_id from old_rows o));
    else
      perform segment_attributes_refresh(array(select n.identity_id from new_rows n));
    end if;
  else
    if tg_op in ('INSERT', 'UPDATE') then
      perform segment_attributes_refresh(segment_suppressed_people(array(select n.kind from new_rows n),
        array(select n.value from new_rows n)));
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
      perform segment_attributes_refresh(segment_suppressed_people(array(select o.kind from old_rows o),
        array(select o.value from old_rows o)));
    end if;
  end if;
  return null;
end $$;
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_insert AFTER INSERT ON person_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_update AFTER UPDATE ON person_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_delete AFTER DELETE ON person_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_suppress AFTER INSERT ON suppressions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_resuppress AFTER UPDATE ON suppressions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
CREATE TRIGGER segment_attributes_on_lift AFTER DELETE ON suppressions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION segment_attributes_follow();
--> statement-breakpoint
-- Bulk loads run as replication replicas to skip foreign-key triggers (pg-writer.ts), restores likewise: these run
-- still.
ALTER TABLE person_records ENABLE ALWAYS TRIGGER segment_attributes_on_insert;
--> statement-breakpoint
ALTER TABLE person_records ENABLE ALWAYS TRIGGER segment_attributes_on_update;
--> statement-breakpoint
ALTER TABLE person_records ENABLE ALWAYS TRIGGER segment_attributes_on_delete;
--> statement-breakpoint
ALTER TABLE suppressions ENABLE ALWAYS TRIGGER segment_attributes_on_suppress;
--> statement-breakpoint
ALTER TABLE suppressions ENABLE ALWAYS TRIGGER segment_attributes_on_resuppress;
--> statement-breakpoint
ALTER TABLE suppressions ENABLE ALWAYS TRIGGER segment_attributes_on_lift;
--> statement-breakpoint
SELECT segment_attributes_refresh(array(select id from people));
