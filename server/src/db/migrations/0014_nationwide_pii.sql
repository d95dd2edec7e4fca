
-- Nationwide PII blocking (decision 0027): a byPii query with a street address but no zip, city or state is
-- searched across the whole graph by its house number and street name, and by its house number and last-name sound.
-- pii_house_street('976 N Summit Dr Apt 3A') = '976 summit': the house number and the first word of the street name
-- (a leading directional skipped), lower case; null when the line does not start with a number. Suffixes, units and
-- case do not change it, so a query written 'Summit Drive' or without its unit finds the same people.
CREATE OR REPLACE FUNCTION pii_house_street(address text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN split_part(address, ' ', 1) ~ '^[0-9]' THEN
    lower(split_part(address, ' ', 1) || ' ' || CASE
      WHEN lower(split_part(address, ' ', 2)) IN ('n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'north', 'south', 'east', 'west')
        AND split_part(address, ' ', 3) <> ''
      THEN split_part(address, ' ', 3) ELSE split_part(address, ' ', 2) END)
  END
$$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_house_street" ON "people" USING btree (pii_house_street("address"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "person_addresses_house_street" ON "person_addresses" USING btree (pii_house_street("address"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "people_house_last_sound" ON "people" USING btree (split_part("address", ' ', 1), dmetaphone("last_name"));
