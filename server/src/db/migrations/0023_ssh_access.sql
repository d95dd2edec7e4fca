CREATE TABLE "ssh_ca" (
	"name" text PRIMARY KEY NOT NULL,
	"private_sealed" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssh_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"grant_id" integer NOT NULL,
	"principal" text NOT NULL,
	"valid_after" timestamp with time zone NOT NULL,
	"valid_before" timestamp with time zone NOT NULL,
	"issued_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssh_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"principal" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
CREATE TABLE "ssh_host_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_sha256" text NOT NULL,
	"token_last_four" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ssh_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"bits" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ssh_certificates" ADD CONSTRAINT "ssh_certificates_key_id_ssh_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."ssh_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_certificates" ADD CONSTRAINT "ssh_certificates_grant_id_ssh_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."ssh_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_certificates" ADD CONSTRAINT "ssh_certificates_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_grants" ADD CONSTRAINT "ssh_grants_key_id_ssh_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."ssh_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_grants" ADD CONSTRAINT "ssh_grants_group_id_ssh_host_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."ssh_host_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_grants" ADD CONSTRAINT "ssh_grants_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_grants" ADD CONSTRAINT "ssh_grants_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_host_groups" ADD CONSTRAINT "ssh_host_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ssh_certificates_grant_idx" ON "ssh_certificates" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "ssh_grants_group_idx" ON "ssh_grants" USING btree ("group_id","principal");--> statement-breakpoint
CREATE INDEX "ssh_grants_key_idx" ON "ssh_grants" USING btree ("key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_host_groups_name_key" ON "ssh_host_groups" USING btree ("name") WHERE "ssh_host_groups"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_fingerprint_key" ON "ssh_keys" USING btree ("fingerprint") WHERE "ssh_keys"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "ssh_keys_user_idx" ON "ssh_keys" USING btree ("user_id");
