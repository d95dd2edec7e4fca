CREATE INDEX "usage_rollups_user_idx" ON "usage_rollups" USING btree ("user_id","bucket","at");--> statement-breakpoint
-- Each user's calls summed by hour and day whatever the key, method and path (decision 0028), from the rollups so far.
INSERT INTO "usage_rollups" ("bucket", "at", "organization_id", "user_id", "key_id", "method", "path", "requests",
  "inputs", "inputs_with_identities", "identities", "identities_with_behaviors", "identities_with_data",
  "identities_with_devices", "identities_with_emails", "identities_with_ips", "identities_with_phones",
  "identities_with_properties", "identities_with_vehicles", "identities_with_finances", "identities_with_companies",
  "behaviors", "devices", "emails", "ips", "phones", "properties", "vehicles", "companies", "best_match_scores",
  "milliseconds", "cost")
SELECT "bucket" || '-user', "at", "organization_id", "user_id", '*', '*', '*', sum("requests"),
  sum("inputs"), sum("inputs_with_identities"), sum("identities"), sum("identities_with_behaviors"),
  sum("identities_with_data"), sum("identities_with_devices"), sum("identities_with_emails"), sum("identities_with_ips"),
  sum("identities_with_phones"), sum("identities_with_properties"), sum("identities_with_vehicles"),
  sum("identities_with_finances"), sum("identities_with_companies"), sum("behaviors"), sum("devices"), sum("emails"),
  sum("ips"), sum("phones"), sum("properties"), sum("vehicles"), sum("companies"), sum("best_match_scores"),
  sum("milliseconds"), sum("cost")
FROM "usage_rollups" WHERE "bucket" IN ('hour', 'day')
GROUP BY "bucket", "at", "organization_id", "user_id"
ON CONFLICT DO NOTHING;
