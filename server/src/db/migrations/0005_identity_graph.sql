CREATE TABLE "people" (
	"id" bigint PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"middle_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"suffix" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT '' NOT NULL,
	"birth_year" smallint,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"zip4" text DEFAULT '' NOT NULL,
	"first_seen" date,
	"last_seen" date
);
--> statement-breakpoint
CREATE TABLE "person_addresses" (
	"identity_id" bigint NOT NULL,
	"seq" smallint NOT NULL,
	"address" text NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"zip4" text DEFAULT '' NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_addresses_identity_id_seq_pk" PRIMARY KEY("identity_id","seq")
);
--> statement-breakpoint
CREATE TABLE "person_behaviors" (
	"identity_id" bigint NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_behaviors_identity_id_category_name_pk" PRIMARY KEY("identity_id","category","name")
);
--> statement-breakpoint
CREATE TABLE "person_companies" (
	"identity_id" bigint NOT NULL,
	"seq" smallint NOT NULL,
	"name" text NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_companies_identity_id_seq_pk" PRIMARY KEY("identity_id","seq")
);
--> statement-breakpoint
CREATE TABLE "person_data" (
	"identity_id" bigint NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_data_identity_id_key_pk" PRIMARY KEY("identity_id","key")
);
--> statement-breakpoint
CREATE TABLE "person_devices" (
	"identity_id" bigint NOT NULL,
	"device_id" text NOT NULL,
	"type" text NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_devices_identity_id_device_id_pk" PRIMARY KEY("identity_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "person_emails" (
	"identity_id" bigint NOT NULL,
	"address" text NOT NULL,
	"md5" text NOT NULL,
	"sha256" text NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_emails_identity_id_address_pk" PRIMARY KEY("identity_id","address")
);
--> statement-breakpoint
CREATE TABLE "person_finances" (
	"identity_id" bigint PRIMARY KEY NOT NULL,
	"income" text DEFAULT '' NOT NULL,
	"net_worth" text DEFAULT '' NOT NULL,
	"credit" text DEFAULT '' NOT NULL,
	"first_seen" date,
	"last_seen" date
);
--> statement-breakpoint
CREATE TABLE "person_ips" (
	"identity_id" bigint NOT NULL,
	"ip" "inet" NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_ips_identity_id_ip_pk" PRIMARY KEY("identity_id","ip")
);
--> statement-breakpoint
CREATE TABLE "person_phones" (
	"identity_id" bigint NOT NULL,
	"number" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"carrier" text DEFAULT '' NOT NULL,
	"do_not_call" boolean DEFAULT false NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_phones_identity_id_number_pk" PRIMARY KEY("identity_id","number")
);
--> statement-breakpoint
CREATE TABLE "person_properties" (
	"identity_id" bigint NOT NULL,
	"seq" smallint NOT NULL,
	"type" text NOT NULL,
	"value" integer,
	"owner_occupied" boolean DEFAULT false NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_properties_identity_id_seq_pk" PRIMARY KEY("identity_id","seq")
);
--> statement-breakpoint
CREATE TABLE "person_vehicles" (
	"identity_id" bigint NOT NULL,
	"vin" text NOT NULL,
	"year" smallint,
	"make" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"first_seen" date,
	"last_seen" date,
	CONSTRAINT "person_vehicles_identity_id_vin_pk" PRIMARY KEY("identity_id","vin")
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppressions_kind_value_pk" PRIMARY KEY("kind","value")
);
--> statement-breakpoint
ALTER TABLE "person_addresses" ADD CONSTRAINT "person_addresses_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_behaviors" ADD CONSTRAINT "person_behaviors_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_companies" ADD CONSTRAINT "person_companies_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_data" ADD CONSTRAINT "person_data_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_devices" ADD CONSTRAINT "person_devices_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_emails" ADD CONSTRAINT "person_emails_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_finances" ADD CONSTRAINT "person_finances_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_ips" ADD CONSTRAINT "person_ips_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_phones" ADD CONSTRAINT "person_phones_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_properties" ADD CONSTRAINT "person_properties_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_vehicles" ADD CONSTRAINT "person_vehicles_identity_id_people_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "people_last_name_trgm" ON "people" USING gin (lower("last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "people_last_name_dmetaphone" ON "people" USING btree (dmetaphone("last_name"));--> statement-breakpoint
CREATE INDEX "people_first_name_dmetaphone" ON "people" USING btree (dmetaphone("first_name"));--> statement-breakpoint
CREATE INDEX "people_address_trgm" ON "people" USING gin (lower("address") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "people_zip" ON "people" USING btree ("zip");--> statement-breakpoint
CREATE INDEX "person_addresses_address_trgm" ON "person_addresses" USING gin (lower("address") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "person_addresses_zip" ON "person_addresses" USING btree ("zip");--> statement-breakpoint
CREATE INDEX "person_devices_device" ON "person_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "person_emails_address" ON "person_emails" USING btree ("address");--> statement-breakpoint
CREATE INDEX "person_emails_md5" ON "person_emails" USING btree ("md5");--> statement-breakpoint
CREATE INDEX "person_emails_sha256" ON "person_emails" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "person_ips_ip" ON "person_ips" USING btree ("ip");--> statement-breakpoint
CREATE INDEX "person_phones_number" ON "person_phones" USING btree ("number");--> statement-breakpoint
CREATE INDEX "person_vehicles_vin" ON "person_vehicles" USING btree ("vin");