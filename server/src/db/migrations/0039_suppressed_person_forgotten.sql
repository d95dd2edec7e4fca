-- A person suppressed (an opt-out) is forgotten in the change log too (issue 33 item 2, decision 0067): the change
-- caught for their suppression keeps no old record, and the old records of their changes not yet sent are dropped,
-- so nothing of theirs outlives suppressions_forget_records. Their event says only `suppressed: true`, which needs
-- no record. An e-mail, hash or phone suppressed, or a suppression lifted, keeps the record as before: the event
-- names the paths removed or restored, and the change is deleted once its event is made.
CREATE OR REPLACE FUNCTION "subscriptions_capture_suppression"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
  v text;
  forget boolean;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM identity_subscriptions WHERE deleted_at IS NULL) THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN k := OLD.kind; v := OLD.value; ELSE k := NEW.kind; v := NEW.value; END IF;
  forget := TG_OP <> 'DELETE' AND k = 'identity';
  IF forget AND v ~ '^[0-9]{1,18}$' THEN
    UPDATE identity_changes SET old_record = NULL WHERE identity_id = v::bigint AND old_record IS NOT NULL;
  END IF;
  INSERT INTO identity_changes (identity_id, old_record, cause)
  SELECT h.id, CASE WHEN forget THEN NULL ELSE r.record END, 'suppression'
  FROM unnest(segment_suppressed_people(ARRAY[k], ARRAY[v])) AS h(id)
  LEFT JOIN person_records r ON r.identity_id = h.id AND NOT forget
  WHERE EXISTS (SELECT 1 FROM identity_subscriptions s WHERE s.identity_id = h.id AND s.deleted_at IS NULL);
  RETURN NULL;
END
$$;
