CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"price_per_request" numeric(14, 6) DEFAULT 0 NOT NULL,
	"price_per_identity" numeric(14, 6) DEFAULT 0 NOT NULL,
	"group_prices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"monthly_limit" numeric(14, 2),
	"rate_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_rollups" (
	"bucket" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"key_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"inputs" bigint DEFAULT 0 NOT NULL,
	"inputs_with_identities" bigint DEFAULT 0 NOT NULL,
	"identities" bigint DEFAULT 0 NOT NULL,
	"identities_with_behaviors" bigint DEFAULT 0 NOT NULL,
	"identities_with_data" bigint DEFAULT 0 NOT NULL,
	"identities_with_devices" bigint DEFAULT 0 NOT NULL,
	"identities_with_emails" bigint DEFAULT 0 NOT NULL,
	"identities_with_ips" bigint DEFAULT 0 NOT NULL,
	"identities_with_phones" bigint DEFAULT 0 NOT NULL,
	"identities_with_properties" bigint DEFAULT 0 NOT NULL,
	"identities_with_vehicles" bigint DEFAULT 0 NOT NULL,
	"identities_with_finances" bigint DEFAULT 0 NOT NULL,
	"identities_with_companies" bigint DEFAULT 0 NOT NULL,
	"behaviors" bigint DEFAULT 0 NOT NULL,
	"devices" bigint DEFAULT 0 NOT NULL,
	"emails" bigint DEFAULT 0 NOT NULL,
	"ips" bigint DEFAULT 0 NOT NULL,
	"phones" bigint DEFAULT 0 NOT NULL,
	"properties" bigint DEFAULT 0 NOT NULL,
	"vehicles" bigint DEFAULT 0 NOT NULL,
	"companies" bigint DEFAULT 0 NOT NULL,
	"best_match_scores" bigint DEFAULT 0 NOT NULL,
	"milliseconds" bigint DEFAULT 0 NOT NULL,
	"cost" numeric(18, 6) DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_rollups_bucket_at_organization_id_user_id_key_id_method_path_pk" PRIMARY KEY("bucket","at","organization_id","user_id","key_id","method","path")
);
--> statement-breakpoint
ALTER TABLE "usage" ADD COLUMN "cost" numeric(16, 6) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contracts_organization_idx" ON "contracts" USING btree ("organization_id","starts_at");--> statement-breakpoint
CREATE INDEX "usage_rollups_organization_idx" ON "usage_rollups" USING btree ("organization_id","bucket","at");--> statement-breakpoint
INSERT INTO "usage_rollups" ("bucket", "at", "organization_id", "user_id", "key_id", "method", "path", "requests", "inputs", "inputs_with_identities", "identities", "identities_with_behaviors", "identities_with_data", "identities_with_devices", "identities_with_emails", "identities_with_ips", "identities_with_phones", "identities_with_properties", "identities_with_vehicles", "identities_with_finances", "identities_with_companies", "behaviors", "devices", "emails", "ips", "phones", "properties", "vehicles", "companies", "best_match_scores", "milliseconds", "cost")
SELECT b.bucket, date_trunc(b.bucket, u."at", 'UTC'), coalesce(u."organization_id", 0), u."user_id", coalesce(u."key_id", ''), u."method", u."path", count(*), sum(u."inputs"), sum(u."inputs_with_identities"), sum(u."identities"), sum(u."identities_with_behaviors"), sum(u."identities_with_data"), sum(u."identities_with_devices"), sum(u."identities_with_emails"), sum(u."identities_with_ips"), sum(u."identities_with_phones"), sum(u."identities_with_properties"), sum(u."identities_with_vehicles"), sum(u."identities_with_finances"), sum(u."identities_with_companies"), sum(u."behaviors"), sum(u."devices"), sum(u."emails"), sum(u."ips"), sum(u."phones"), sum(u."properties"), sum(u."vehicles"), sum(u."companies"), sum(u."best_match_scores"), sum(u."milliseconds"), sum(u."cost")
FROM "usage" u CROSS JOIN (VALUES ('hour'), ('day')) AS b(bucket)
GROUP BY 1, 2, 3, 4, 5, 6, 7;
