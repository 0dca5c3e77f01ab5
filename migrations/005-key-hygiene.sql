-- Key hygiene: when a client's secret was last used, and a grace period for the secret a reset
-- replaced, so an integration can roll its secret over without an outage. Only the secret just
-- replaced is kept: a second reset overwrites it, which ends the first one's grace at once.
ALTER TABLE clients
  ADD COLUMN secret_last_used_at timestamptz,
  ADD COLUMN previous_secret_hash text,
  ADD COLUMN previous_secret_expires_at timestamptz;
