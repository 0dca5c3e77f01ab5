-- The one inbound writer (issue 32; migrations/functions/record_inbound.sql, join_inbound_parts.sql,
-- store_overdue_inbound.sql). A part joined into its message stays a while, marked with that
-- message: the same part delivered again (a provider's retry after the join) is then known as a
-- duplicate instead of starting a message of its own. Waiting parts have message_id null.
ALTER TABLE inbound_parts ADD COLUMN message_id uuid;

-- A part's provider id, for the duplicate check (Vonage gives each part its own messageId).
CREATE INDEX inbound_parts_provider_id_idx
  ON inbound_parts (method, provider_message_id) WHERE provider_message_id IS NOT NULL;

-- The Operations screen's inbound counts of the last 24 hours, per method.
CREATE INDEX inbound_messages_received_idx ON inbound_messages (date_received);

-- The sweep's probe: the oldest waiting parts first.
CREATE INDEX inbound_parts_waiting_idx
  ON inbound_parts (date_received) WHERE message_id IS NULL;
