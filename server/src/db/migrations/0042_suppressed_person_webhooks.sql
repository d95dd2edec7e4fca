-- A person suppressed (an opt-out) is forgotten in the webhook outbox too (review of issue 33): the identity.changed
-- messages made for them before, with their records, are deleted with their deliveries and attempts, whether still
-- pending (a disabled endpoint's, re-enabled later) or sent (a replay would send them again). The suppression's own
-- event (`suppressed: true`, no record) is made after this, by the notifier. Like 0039, only a person's suppression.
CREATE OR REPLACE FUNCTION "webhooks_forget_suppressed_person"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A suppression list imported runs this once a row: a deployment whose outbox holds no change event (nobody
  -- subscribes) skips the per-message JSON reads below.
  IF NOT EXISTS (SELECT 1 FROM webhook_messages WHERE event_type = 'identity.changed') THEN RETURN NULL; END IF;
  IF NEW.kind = 'identity' AND NEW.value ~ '^[0-9]{1,18}$' THEN
    DELETE FROM webhook_messages
    WHERE event_type = 'identity.changed'
      AND (payload::jsonb #>> '{data,identityId}') = NEW.value
      AND (payload::jsonb #>> '{data,suppressed}') IS DISTINCT FROM 'true';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhooks_forget_suppressed_person" AFTER INSERT OR UPDATE ON "suppressions"
  FOR EACH ROW EXECUTE FUNCTION "webhooks_forget_suppressed_person"();
