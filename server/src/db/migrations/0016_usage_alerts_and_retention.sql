CREATE TABLE "usage_alert_firings" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"kind" text NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"period" text NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"spent" numeric(18, 6),
	"monthly_limit" numeric(14, 2),
	"requests" bigint,
	"average" numeric(18, 2),
	"multiple" numeric(5, 2)
);
--> statement-breakpoint
CREATE TABLE "usage_alert_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"thresholds_on" boolean DEFAULT true NOT NULL,
	"thresholds" integer[] DEFAULT '{80,100}'::integer[] NOT NULL,
	"spike_on" boolean DEFAULT true NOT NULL,
	"spike_multiple" numeric(5, 2) DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_alert_firings" ADD CONSTRAINT "usage_alert_firings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_alert_settings" ADD CONSTRAINT "usage_alert_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_alert_firings_once_idx" ON "usage_alert_firings" USING btree ("organization_id","kind","share","period");--> statement-breakpoint
CREATE INDEX "usage_alert_firings_recent_idx" ON "usage_alert_firings" USING btree ("organization_id","fired_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "usage_at_idx" ON "usage" USING btree ("at");