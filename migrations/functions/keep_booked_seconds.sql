-- keep_booked_seconds as it is now; its history before this file: migrations 021.
-- A change to it is a diff of this file (migrations/README.md).

-- The sends a booked second still has room for come after its bookings: accept_sms's count (its
-- INSERT … ON CONFLICT DO UPDATE, 015/019) is skipped when the second's bookings fill it, which
-- accept_sms answers as any full second (refusal 'throttled', 429). The release's own updates
-- pass (the transaction-local setting sms.releasing); an update that counts no send (a refused
-- send giving its count back) passes too. A new second starts with no booked one released.
CREATE OR REPLACE FUNCTION keep_booked_seconds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_limit integer;
  v_reserved integer;
BEGIN
  IF current_setting('sms.releasing', true) = 'on' THEN
    RETURN NEW;
  END IF;
  IF NEW.window_second > OLD.window_second THEN
    NEW.released_booked := 0;
  ELSIF NEW.sent <= OLD.sent THEN
    RETURN NEW;
  END IF;
  SELECT c.max_messages_per_second INTO v_limit FROM clients c WHERE c.id = NEW.client_id;
  IF v_limit IS NULL THEN
    RETURN NEW;
  END IF;
  v_reserved := CASE WHEN NEW.booked_second > NEW.window_second THEN v_limit
                     WHEN NEW.booked_second = NEW.window_second THEN NEW.booked
                     ELSE 0 END;
  IF NEW.sent - NEW.released_booked + greatest(v_reserved, NEW.released_booked) > v_limit THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER client_send_windows_keep_booked BEFORE UPDATE ON client_send_windows
  FOR EACH ROW EXECUTE FUNCTION keep_booked_seconds();
