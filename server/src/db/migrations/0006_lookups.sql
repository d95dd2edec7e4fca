CREATE TABLE "template_versions" (
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"expression" text NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_versions_template_id_version_pk" PRIMARY KEY("template_id","version")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"organization_id" integer,
	"created_by" integer,
	"admin_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"key_id" text,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"inputs" integer DEFAULT 0 NOT NULL,
	"inputs_with_identities" integer DEFAULT 0 NOT NULL,
	"identities" integer DEFAULT 0 NOT NULL,
	"identities_with_behaviors" integer DEFAULT 0 NOT NULL,
	"identities_with_data" integer DEFAULT 0 NOT NULL,
	"identities_with_devices" integer DEFAULT 0 NOT NULL,
	"identities_with_emails" integer DEFAULT 0 NOT NULL,
	"identities_with_ips" integer DEFAULT 0 NOT NULL,
	"identities_with_phones" integer DEFAULT 0 NOT NULL,
	"identities_with_properties" integer DEFAULT 0 NOT NULL,
	"identities_with_vehicles" integer DEFAULT 0 NOT NULL,
	"identities_with_finances" integer DEFAULT 0 NOT NULL,
	"identities_with_companies" integer DEFAULT 0 NOT NULL,
	"behaviors" integer DEFAULT 0 NOT NULL,
	"devices" integer DEFAULT 0 NOT NULL,
	"emails" integer DEFAULT 0 NOT NULL,
	"ips" integer DEFAULT 0 NOT NULL,
	"phones" integer DEFAULT 0 NOT NULL,
	"properties" integer DEFAULT 0 NOT NULL,
	"vehicles" integer DEFAULT 0 NOT NULL,
	"companies" integer DEFAULT 0 NOT NULL,
	"best_match_scores" integer DEFAULT 0 NOT NULL,
	"milliseconds" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_organization_idx" ON "templates" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_request_idx" ON "usage" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "usage_organization_at_idx" ON "usage" USING btree ("organization_id","at");--> statement-breakpoint
CREATE INDEX "usage_user_at_idx" ON "usage" USING btree ("user_id","at");--> statement-breakpoint
INSERT INTO "templates" ("id", "name", "description") VALUES
  (1, 'Full', 'The whole identity record: the person and every record linked to them.'),
  (2, 'Compact Contacts', 'Name, postal address, and the most recently seen e-mail address and phone number.'),
  (3, 'Emails Only', 'The identity id and its e-mail addresses.'),
  (4, 'Hashed Emails Only', 'The identity id and the MD5 and SHA-256 hashes of its e-mail addresses, never the addresses.'),
  (5, 'Postal', 'Name and postal address, for mailing.');--> statement-breakpoint
INSERT INTO "template_versions" ("template_id", "version", "expression", "published_at") VALUES
  (1, 1, '$', now()),
  (2, 1, $tpl${
  "id": id,
  "firstName": firstName,
  "lastName": lastName,
  "address": address,
  "city": city,
  "state": state,
  "zip": zip,
  "email": emails[0].address,
  "phone": phones[0].number
}$tpl$, now()),
  (3, 1, $tpl${
  "id": id,
  "emails": [emails.address]
}$tpl$, now()),
  (4, 1, $tpl${
  "id": id,
  "md5": [emails.md5],
  "sha256": [emails.sha256]
}$tpl$, now()),
  (5, 1, $tpl${
  "id": id,
  "firstName": firstName,
  "middleName": middleName,
  "lastName": lastName,
  "suffix": suffix,
  "address": address,
  "city": city,
  "state": state,
  "zip": zip,
  "zip4": zip4
}$tpl$, now());--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('templates', 'id'), 100, false);
