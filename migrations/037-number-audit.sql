-- Inbound numbers' audit events (issue 32): `number.assigned` and `number.released` name a
-- number by its digits, as price events name a price by its prefix, so `number` becomes a
-- target type.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_target_type_check;
ALTER TABLE audit_events
  ADD CONSTRAINT audit_events_target_type_check
  CHECK (target_type IN ('user', 'client', 'price', 'number'));
