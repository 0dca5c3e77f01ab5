-- Campaigns (issue 20; CONTRACT.md "Campaigns: scheduled and bulk sends"): one body sent to many
-- recipients as a batch, and sends held until a time (`send_at`). A batch's progress is counted
-- from its messages by state (messages_batch_idx), never stored twice.

CREATE TABLE batches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- As messages.client_id: no foreign key, the history outlives a deleted client.
  client_id uuid NOT NULL,
  user_id uuid NOT NULL,
  sender text NOT NULL,
  body text NOT NULL,
  -- Distinct recipients sent to (duplicates are sent once).
  total integer NOT NULL CHECK (total BETWEEN 1 AND 10000),
  -- The sum of its messages' prices, debited at once.
  amount numeric(15, 4) NOT NULL,
  currency text NOT NULL,
  send_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batches_client_idx ON batches (client_id, date_created, id);

-- batch_id: the batch a message belongs to (null for a single send). send_at: when a SCHEDULED
-- message is released into delivery (null: sent at once).
ALTER TABLE messages
  ADD COLUMN batch_id uuid,
  ADD COLUMN send_at timestamptz;
CREATE INDEX messages_batch_idx ON messages (batch_id, state) WHERE batch_id IS NOT NULL;

-- An Idempotency-Key may stand for a batch instead of a message.
ALTER TABLE idempotency_keys ADD COLUMN batch_id uuid;
