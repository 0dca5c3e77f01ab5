-- Inbound callbacks (issue 32; CONTRACT.md "Two-way messaging", Inbound callbacks): each inbound
-- message of a client with an inbound_callback_url (032) is POSTed there by the status-callback
-- worker, queued by a trigger on inbound_messages in the inbound write's transaction
-- (functions/inbound_messages_inserted_callbacks.sql). Each try is kept here, as
-- message_callbacks keeps a message's: inbound messages are not messages, so they get their own
-- table rather than rows whose message_id names no message.
CREATE TABLE inbound_callbacks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  inbound_message_id uuid NOT NULL,
  client_id uuid NOT NULL,
  -- The try's number for that message's event (1 = first delivery).
  attempt integer NOT NULL,
  -- The receiver's HTTP status when it answered; error is null for a 2xx.
  http_status integer,
  error text,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbound_callbacks_message_idx ON inbound_callbacks (inbound_message_id, id);
