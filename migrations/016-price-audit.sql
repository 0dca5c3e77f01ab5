-- The price list's audit events (issue 19): `price.changed` and `price.imported` name a price
-- by its prefix (digits, not a uuid), so the target becomes text and `price` a target type.
-- Existing ids keep their canonical lower-case uuid text.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_target_type_check;
ALTER TABLE audit_events
  ADD CONSTRAINT audit_events_target_type_check
  CHECK (target_type IN ('user', 'client', 'price'));
ALTER TABLE audit_events ALTER COLUMN target_id TYPE text USING target_id::text;
