-- message_parts_drop_foreign_receipt as it is now; its history before this file: migrations 008.
-- A change to it is a diff of this file (migrations/README.md).

-- A submit claims its parts by setting message_id (record_attempts' upsert, or whatever later
-- writes it): a waiting unauthenticated receipt that names another message is dropped right
-- there, before the message is settled. A row trigger rather than a new record_attempts so every
-- way of claiming a part obeys it; its WHEN makes it fire only for such a waiting receipt, so
-- the batch statements stay set-based and pay nothing in the usual case.
CREATE OR REPLACE FUNCTION message_parts_drop_foreign_receipt() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.receipt_client_ref IS DISTINCT FROM NEW.message_id THEN
    NEW.state := NULL;
    NEW.error := NULL;
    NEW.date_receipt := NULL;
    NEW.receipt_authenticated := true;
    NEW.receipt_client_ref := NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER message_parts_drop_foreign_receipt
  BEFORE UPDATE OF message_id ON message_parts
  FOR EACH ROW
  WHEN (OLD.message_id IS NULL AND NEW.message_id IS NOT NULL
        AND OLD.state IS NOT NULL AND NOT OLD.receipt_authenticated)
  EXECUTE FUNCTION message_parts_drop_foreign_receipt();
