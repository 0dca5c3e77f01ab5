-- Backups (npm run backup, scheduled with BACKUP_DIR): one row per attempt, written after it, so
-- that every node reports the same last backup (/metrics backup_last_success_timestamp_seconds,
-- the Operations screen) and a fleet's nodes see when the last scheduled one was taken.
CREATE TABLE backups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('manual', 'scheduled')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  ok boolean NOT NULL,
  -- The file's name (scheduled: inside BACKUP_DIR); null when none was written.
  file text,
  bytes bigint,
  error text
);

CREATE INDEX backups_finished_at ON backups (finished_at DESC);
