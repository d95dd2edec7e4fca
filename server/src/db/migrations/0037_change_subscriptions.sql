-- Change subscriptions (issue 33 item 2, decision 0067): subscriptions to identities, the contract's price per
-- change event and subscription limit, and the old records of subscribed identities a write changed, caught in the
-- writing transaction (storeRecordsSql's statement; the trigger below for the suppression list) until the notifier
-- makes their events.
CREATE TABLE "identity_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"identity_id" bigint NOT NULL,
	"old_record" json,
	"cause" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_token" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "identity_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"key_id" text,
	"identity_id" bigint NOT NULL,
	"input_kind" text,
	"input_value" text,
	"template_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "price_per_event" numeric(14, 6) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "subscription_limit" integer;--> statement-breakpoint
ALTER TABLE "identity_subscriptions" ADD CONSTRAINT "identity_subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_subscriptions" ADD CONSTRAINT "identity_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_changes_identity_idx" ON "identity_changes" USING btree ("identity_id");--> statement-breakpoint
CREATE INDEX "identity_changes_at_idx" ON "identity_changes" USING btree ("at");--> statement-breakpoint
CREATE INDEX "identity_subscriptions_identity_idx" ON "identity_subscriptions" USING btree ("identity_id") WHERE "identity_subscriptions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "identity_subscriptions_organization_idx" ON "identity_subscriptions" USING btree ("organization_id","id");
--> statement-breakpoint
-- A suppression added, changed or lifted that concerns a subscribed identity (the person, or a holder of the e-mail
-- or phone) is caught in its own transaction, with the record stored before it. Row triggers of one event fire in
-- name order: this one before suppressions_forget_records drops that record. Nothing is read when no one subscribes.
CREATE FUNCTION "subscriptions_capture_suppression"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
  v text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM identity_subscriptions WHERE deleted_at IS NULL) THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN k := OLD.kind; v := OLD.value; ELSE k := NEW.kind; v := NEW.value; END IF;
  INSERT INTO identity_changes (identity_id, old_record, cause)
  SELECT h.id, r.record, 'suppression'
  FROM unnest(segment_suppressed_people(ARRAY[k], ARRAY[v])) AS h(id)
  LEFT JOIN person_records r ON r.identity_id = h.id
  WHERE EXISTS (SELECT 1 FROM identity_subscriptions s WHERE s.identity_id = h.id AND s.deleted_at IS NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "subscriptions_capture_suppression" AFTER INSERT OR UPDATE OR DELETE ON "suppressions"
  FOR EACH ROW EXECUTE FUNCTION "subscriptions_capture_suppression"();--> statement-breakpoint
ALTER TABLE "suppressions" ENABLE ALWAYS TRIGGER "subscriptions_capture_suppression";
