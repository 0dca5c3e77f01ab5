-- Where each user signed in with their password in the last 30 days (issue 15): there the
-- account-wide and address-wide sign-in caps do not apply. In the database so the addresses
-- survive a restart and every node knows them; a node writes a pair at most once an hour and
-- deletes entries older than 30 days.
CREATE TABLE known_sign_in_addresses (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address text NOT NULL,
  last_success timestamptz NOT NULL,
  PRIMARY KEY (user_id, address)
);
-- Housekeeping deletes by age.
CREATE INDEX known_sign_in_addresses_last_success_idx
  ON known_sign_in_addresses (last_success);
